"""TRL: GRPO with rewards from a gym4j verifier (string_match here), the deployment started with this process.

    GYM4J_HOME=/path/to/gym4j python trl_grpo.py Qwen/Qwen3-0.6B data/train.jsonl

`data/train.jsonl` holds TRL rows: `prompt` plus the environment's task fields (`expected_answer`,
`extraction_mode`, ...). The trainer generates; gym4j only verifies, so no model server is involved.
"""

from __future__ import annotations

import sys

from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

from gym4j_client import Gym4j, LocalDeployment
from gym4j_client.trl import Gym4jReward

model, data = sys.argv[1], sys.argv[2]
# string_match's config also declares its simple agent, whose policy_model is never called here
with LocalDeployment(["models/configs/vllm_model.yaml", "environments/string_match/config.yaml"],
                     ["+policy_base_url=http://127.0.0.1:9/v1", "+policy_api_key=unused",
                      "+policy_model_name=unused"]) as deployment:
    reward = Gym4jReward(Gym4j(deployment.head_url), "string_match")
    trainer = GRPOTrainer(model=model, reward_funcs=[reward], train_dataset=load_dataset("json", data_files=data)["train"],
                          args=GRPOConfig(output_dir="grpo-out", num_generations=8))
    trainer.train()
