"""VeRL: an agent loop whose rollouts gym4j runs (a sketch for VeRL's experimental agent-loop API; VeRL is not
installed where gym4j's tests run, so this file is not executed by them. What it calls in gym4j_client is.)

The gym4j deployment's policy_model points at the OpenAI-compatible server of VeRL's rollout engine, with
`models/configs/vllm_model_for_training.yaml` so every model turn carries its token ids. Each sample's
`extra_info.gym4j_row` is a gym4j task row (`gym4j data collate ... --output train.jsonl` writes them, with
`agent_ref`). Register the loop in VeRL's agent-loop config as `gym4j_agent`.

    GYM4J_HEAD_URL=http://127.0.0.1:11000 python -m verl.trainer.main_ppo ... \\
        actor_rollout_ref.rollout.agent.agent_loop_config_path=agent_loops.yaml
"""

from __future__ import annotations

import os

from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopOutput, register

from gym4j_client import Gym4j, RolloutFailure
from gym4j_client.tokens import trajectory

_gym = Gym4j(os.environ.get("GYM4J_HEAD_URL", "http://127.0.0.1:11000"))


class Gym4jRolloutFailed(RuntimeError):
    """A sample gym4j could not score: the batch fails rather than train on an invented reward."""


@register("gym4j_agent")
class Gym4jAgentLoop(AgentLoopBase):
    async def run(self, sampling_params, **kwargs) -> AgentLoopOutput:
        row = dict(kwargs["extra_info"]["gym4j_row"])
        params = row.setdefault("responses_create_params", {})
        params.setdefault("temperature", sampling_params.get("temperature", 1.0))
        params.setdefault("top_p", sampling_params.get("top_p", 1.0))
        result = await _gym.run(row)
        if isinstance(result, RolloutFailure):
            raise Gym4jRolloutFailed(f"{result.failure_class}: {result.message}")
        tokens = trajectory(result)
        limit = self.config.actor_rollout_ref.rollout.response_length
        return AgentLoopOutput(
            prompt_ids=tokens.prompt_ids,
            response_ids=tokens.response_ids[:limit],
            response_mask=tokens.response_mask[:limit],
            response_logprobs=tokens.logprobs[:limit],
            reward_score=float(result["reward"]),
            num_turns=tokens.turns,
            metrics={},
        )
