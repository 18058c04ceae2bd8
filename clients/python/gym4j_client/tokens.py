"""A rollout's token ids as one trajectory, the shape VeRL's and OpenRLHF's agent loops hand their trainer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import List


@dataclass(frozen=True)
class Trajectory:
    """The first prompt, then everything after it: the model's tokens (mask 1) and the tokens the environment
    added between turns (tool results, the chat template's markers: mask 0, log-prob 0)."""

    prompt_ids: List[int]
    response_ids: List[int]
    response_mask: List[int]
    logprobs: List[float]
    turns: int  # model calls


def trajectory(result: dict) -> Trajectory:
    """The token trajectory of a finished rollout whose model server gave token ids (gym4j's `vllm_model` with
    `return_token_id_information: true`, NeMo Gym's fields `prompt_token_ids`, `generation_token_ids`,
    `generation_log_probs` on each model turn's output items).

    Raises ValueError when the response has no token ids, or when a turn's prompt does not begin with the previous
    turns (the chat template re-rendered the history differently): such a rollout cannot be trained on token-exact.
    """
    turns = []
    for item in (result.get("response") or {}).get("output") or []:
        if not isinstance(item, dict) or "generation_token_ids" not in item:
            continue
        turn = (list(item.get("prompt_token_ids") or []), list(item["generation_token_ids"]),
                list(item.get("generation_log_probs") or []))
        # a model turn that produced several output items (text and tool calls) carries the same ids on each
        if not turns or turns[-1] != turn:
            turns.append(turn)
    if not turns:
        raise ValueError("the rollout's response has no token ids: use a model config with "
                         "return_token_id_information: true (models/configs/vllm_model_for_training.yaml)")
    prompt = turns[0][0]
    seen = list(prompt)
    response, mask, logprobs = [], [], []
    for number, (turn_prompt, generated, generated_logprobs) in enumerate(turns):
        if turn_prompt[:len(seen)] != seen:
            raise ValueError(f"turn {number}'s prompt does not begin with the turns before it")
        between = turn_prompt[len(seen):]
        if len(generated_logprobs) != len(generated):
            raise ValueError(f"turn {number} has {len(generated)} generated ids but {len(generated_logprobs)} log-probs")
        response += between + generated
        mask += [0] * len(between) + [1] * len(generated)
        logprobs += [0.0] * len(between) + [float(p) for p in generated_logprobs]
        seen = turn_prompt + generated
    return Trajectory(prompt, response, mask, logprobs, len(turns))
