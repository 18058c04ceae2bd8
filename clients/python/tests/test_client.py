"""The client against a real deployment: `gym4j run` with string_match and example_single_tool_call, their
simple agents, and a scripted vLLM. NeMo Gym read: nemo_gym/rollout_collection.py (RolloutCollectionHelper:
row expansion, `_ng_task_index`/`_ng_rollout_index`, `run_examples` yielding in completion order) and
nemo_gym/global_config.py (the field names)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from conftest import ROOT, other_row, say_row

from gym4j_client import DiscoveryError, Gym4j, Retries, RolloutFailure, VerificationFailed, expand
from gym4j_client.tokens import trajectory

FAST = Retries(max_attempts=2, first_wait=0.05, max_wait=0.2, outage_wait=5)


def collect(gym, rows, **kwargs):
    async def run():
        return [item async for item in gym.run_examples(rows, **kwargs)]

    return asyncio.run(run())


def test_expand_numbers_tasks_and_rollouts_as_nemo_gym():
    rows = [say_row("a"), say_row("b"), say_row("a"), {**say_row("c"), "_ng_task_index": 7}]
    expanded = expand(rows, num_repeats=2, agent_name="string_match_simple_agent")
    assert [(r["_ng_task_index"], r["_ng_rollout_index"]) for r in expanded] == [
        (0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (0, 3), (7, 0), (7, 1)]
    assert all(r["agent_ref"] == {"name": "string_match_simple_agent"} for r in expanded)


def test_expand_names_rows_without_an_agent():
    with pytest.raises(ValueError, match=r"rows \[1\] have no agent_ref.name"):
        expand([{**say_row("a"), "agent_ref": {"name": "x"}}, say_row("b")])


def test_discovery_lists_the_agents_the_head_server_runs(deployment):
    gym = Gym4j(deployment.head_url)
    assert gym.agents() == ["example_single_tool_call_simple_agent", "string_match_simple_agent"]


def test_run_examples_yields_every_rollout_once_with_nemo_gym_fields_and_token_ids(deployment):
    gym = Gym4j(deployment.head_url, retries=FAST)
    rows = [say_row("Paris"), say_row("Rome"), other_row("Berlin")]
    results = collect(gym, rows, num_repeats=3, parallel=4, agent_name="string_match_simple_agent")

    assert sorted((r["_ng_task_index"], r["_ng_rollout_index"]) for r in results) == [
        (t, k) for t in range(3) for k in range(3)]
    for result in results:
        assert isinstance(result, dict), result
        assert result["agent_ref"] == {"name": "string_match_simple_agent"}
        task = rows[result["_ng_task_index"]]
        assert result["reward"] == (1.0 if task["responses_create_params"]["input"][0]["content"].startswith("Say")
                                    else 0.0)
        # the model's token ids, as the scripted vLLM produced them: UTF-8 bytes of its answer
        answer = "\\boxed{" + task["expected_answer"] + "}" if result["reward"] == 1.0 else "\\boxed{nothing}"
        message = result["response"]["output"][-1]
        assert message["generation_token_ids"] == list(answer.encode())
        assert len(message["generation_log_probs"]) == len(answer.encode())
        assert trajectory(result).response_ids == list(answer.encode())


def test_a_rollout_that_cannot_finish_is_a_failure_object_after_its_attempts(deployment, model):
    gym = Gym4j(deployment.head_url, retries=FAST)
    before = model.calls
    items = collect(gym, [say_row("FAIL_MODEL"), say_row("Oslo")], agent_name="string_match_simple_agent")

    failures = [i for i in items if isinstance(i, RolloutFailure)]
    results = [i for i in items if not isinstance(i, RolloutFailure)]
    assert len(failures) == 1 and len(results) == 1
    failure = failures[0]
    assert (failure.task_index, failure.rollout_index, failure.attempts) == (0, 0, 2)
    assert failure.failure_class == "model_error", failure
    assert not hasattr(failure, "reward") and "reward" not in failure.as_row()
    assert failure.as_row()["_ng_failure_class"] == "model_error"
    assert results[0]["reward"] == 1.0
    assert model.calls - before == 3  # two attempts of the failing rollout, one of the other


def test_rows_naming_an_agent_the_deployment_does_not_run_are_refused_before_any_call(deployment, model):
    gym = Gym4j(deployment.head_url)
    before = model.calls
    with pytest.raises(DiscoveryError, match="does not run: no_such_agent"):
        collect(gym, [say_row("a")], agent_name="no_such_agent")
    assert model.calls == before


def test_a_multi_step_tool_rollout_keeps_every_turn_and_its_token_trajectory(deployment):
    gym = Gym4j(deployment.head_url, retries=FAST)
    rows = [json.loads(line) for line in
            (ROOT / "environments/example_single_tool_call/data/example.jsonl").read_text().splitlines()[:2]]
    results = collect(gym, rows, agent_name="example_single_tool_call_simple_agent")

    assert len(results) == 2
    for result in results:
        assert result["reward"] == 1.0
        kinds = [item["type"] for item in result["response"]["output"]]
        assert kinds == ["function_call", "function_call_output", "message"]
        tokens = trajectory(result)
        output = next(i["output"] for i in result["response"]["output"] if i["type"] == "function_call_output")
        # the tool's output reached the model as environment tokens (mask 0) between the two generations
        between = bytes(t for t, m in zip(tokens.response_ids, tokens.response_mask) if m == 0).decode()
        assert output in between
        generated = bytes(t for t, m in zip(tokens.response_ids, tokens.response_mask) if m == 1).decode()
        assert generated.startswith("<tool_call>get_weather") and generated.endswith("It is " + output)


def test_verify_scores_a_response_the_trainer_generated(deployment):
    gym = Gym4j(deployment.head_url)
    assert gym.verify("string_match", say_row("Paris"), "so \\boxed{Paris}")["reward"] == 1.0
    assert gym.verify("string_match", say_row("Paris"), "\\boxed{Lyon}")["reward"] == 0.0


def test_a_verification_that_fails_raises_naming_the_field_and_is_never_a_reward(deployment):
    gym = Gym4j(deployment.head_url)
    row = say_row("Paris")
    del row["expected_answer"]
    with pytest.raises(VerificationFailed) as failed:
        gym.verify("string_match", row, "\\boxed{Paris}")
    assert failed.value.failure_class == "verify_error" and failed.value.status == 422
    assert "expected_answer" in failed.value.message

    verdicts = gym.verify_many("string_match", [say_row("a"), row, say_row("b")], ["\\boxed{a}"] * 3, parallel=2)
    assert verdicts[0]["reward"] == 1.0 and verdicts[2]["reward"] == 0.0
    assert isinstance(verdicts[1], VerificationFailed)


def test_verify_refuses_a_server_the_deployment_does_not_run(deployment):
    with pytest.raises(DiscoveryError, match="no resources_servers instance named 'string_match_simple_agent'"):
        Gym4j(deployment.head_url).verify("string_match_simple_agent", say_row("a"), "a")


def test_a_head_server_that_is_not_there_is_a_discovery_error():
    with pytest.raises(DiscoveryError, match="cannot be reached"):
        Gym4j("http://127.0.0.1:9", discovery_timeout=2).agents()
