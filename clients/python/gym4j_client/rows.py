"""Task rows to rollout rows, as NeMo Gym's RolloutCollectionHelper expands them (nemo_gym/rollout_collection.py)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Iterable, List, Optional

TASK_INDEX = "_ng_task_index"
ROLLOUT_INDEX = "_ng_rollout_index"
ATTEMPT_INDEX = "_ng_attempt_index"
AGENT_REF = "agent_ref"
PARAMS = "responses_create_params"


def expand(rows: Iterable[dict], num_repeats: int = 1, agent_name: Optional[str] = None,
           add_seed: bool = False) -> List[dict]:
    """Every task row `num_repeats` times, in NeMo Gym's pattern (abc to aabbcc).

    A row keeps a `_ng_task_index` it already has; otherwise identical rows share one task index, numbered in
    order of first appearance. `_ng_rollout_index` counts the repeats of each task from 0. `agent_name` fills in
    `agent_ref` where a row has none; `add_seed` puts the rollout index as `seed` in
    `responses_create_params.metadata.extra_body` (NeMo Gym's `num_repeats_add_seed`).
    """
    if not isinstance(num_repeats, int) or num_repeats < 1:
        raise ValueError(f"num_repeats must be a positive integer, got {num_repeats!r}")
    task_of_row: dict = {}
    next_rollout: Counter = Counter()
    missing_agent, missing_params = [], []
    expanded: List[dict] = []
    for position, row in enumerate(rows):
        if not isinstance(row, dict):
            raise ValueError(f"row {position} is not a JSON object")
        row = copy.deepcopy(row)
        if agent_name:
            row.setdefault(AGENT_REF, {"name": agent_name})
        if not isinstance(row.get(AGENT_REF), dict) or not row[AGENT_REF].get("name"):
            missing_agent.append(position)
            continue
        if not isinstance(row.get(PARAMS), dict):
            missing_params.append(position)
            continue
        if TASK_INDEX not in row:
            # the row as given decides the task: the same row twice is the same task, as in NeMo Gym
            key = json.dumps({k: v for k, v in row.items() if k != ROLLOUT_INDEX}, sort_keys=True)
            row[TASK_INDEX] = task_of_row.setdefault(key, len(task_of_row))
        for _ in range(num_repeats):
            rollout = copy.deepcopy(row)
            rollout[ROLLOUT_INDEX] = next_rollout[rollout[TASK_INDEX]]
            next_rollout[rollout[TASK_INDEX]] += 1
            if add_seed:
                metadata = rollout[PARAMS].setdefault("metadata", {})
                extra_body = json.loads(metadata.get("extra_body", "{}"))
                extra_body["seed"] = rollout[ROLLOUT_INDEX]
                metadata["extra_body"] = json.dumps(extra_body)
            expanded.append(rollout)
    if missing_agent:
        raise ValueError(f"rows {missing_agent} have no agent_ref.name: give agent_name or put agent_ref in the rows")
    if missing_params:
        raise ValueError(f"rows {missing_params} have no responses_create_params object")
    return expanded
