"""OpenRLHF: an agent executor whose rollouts gym4j runs (a sketch for `--agent_func_path`, the shape of
OpenRLHF's examples/python/agent_func_nemogym_executor.py; OpenRLHF is not installed where gym4j's tests run,
so this file is not executed by them. What it calls in gym4j_client is.)

The trainer serves its policy as an OpenAI-compatible /v1/chat/completions with `token_id:N` log-prob tokens
(as OpenRLHF's NeMo Gym executor does) at POLICY_BASE_URL; this module starts gym4j on it, with token ids on
every model turn, and stops it with the trainer process.
"""

from __future__ import annotations

import asyncio
import os

from openrlhf.utils.agent import AgentExecutorBase, AgentInstanceBase

from gym4j_client import Gym4j, LocalDeployment, RolloutFailure
from gym4j_client.tokens import trajectory

ENVIRONMENT = os.environ.get("GYM4J_ENVIRONMENT", "string_match")
AGENT = f"{ENVIRONMENT}_simple_agent"


class AgentInstance(AgentInstanceBase):
    async def step(self, states: dict, **kwargs) -> dict:
        return states


class AgentExecutor(AgentExecutorBase):
    def __init__(self, max_steps, max_length, llm_engine, hf_tokenizer, result_queue):
        self.deployment = LocalDeployment(
            ["models/configs/vllm_model_for_training.yaml", f"environments/{ENVIRONMENT}/config.yaml"],
            [f"+policy_base_url={os.environ['POLICY_BASE_URL']}", "+policy_api_key=EMPTY",
             f"+policy_model_name={getattr(hf_tokenizer, 'name_or_path', 'policy')}"],
            cwd=os.environ.get("GYM4J_HOME")).start()
        self.gym = Gym4j(self.deployment.head_url)
        super().__init__(AgentInstance, max_steps, max_length, llm_engine, hf_tokenizer, result_queue)

    async def execute(self, prompt, label, sampling_params):
        row = {"responses_create_params": {"input": [{"role": "user", "content": prompt}],
                                           "temperature": sampling_params.temperature},
               "expected_answer": label, "agent_ref": {"name": AGENT}}
        async with self.semaphore:
            result = await self.gym.run(row)
        if isinstance(result, RolloutFailure):
            # no reward was given: the sample fails, it is not trained on as reward 0
            raise RuntimeError(f"gym4j rollout failed ({result.failure_class}): {result.message}")
        tokens = trajectory(result)
        ranges, start = [], None
        for i, bit in enumerate(tokens.response_mask + [0]):
            if bit and start is None:
                start = i
            elif not bit and start is not None:
                ranges.append((start, i))
                start = None
        await self.result_queue.put({
            "prompt": prompt, "label": label, "observation_tokens": tokens.response_ids,
            "reward": float(result["reward"]), "scores": float(result["reward"]), "extra_logs": {},
            "action_ranges": ranges, "rollout_log_probs": tokens.logprobs,
        })

    def shutdown(self):
        self.deployment.stop()
