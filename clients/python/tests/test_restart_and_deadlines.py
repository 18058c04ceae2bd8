"""A deployment killed (SIGKILL) and started again while the trainer iterates over run_examples, and rollouts
that outlive their time. NeMo Gym read: nemo_gym/rollout_collection.py (run_examples: one result per example;
the failure sidecar's classes)."""

from __future__ import annotations

import asyncio
from collections import Counter

from conftest import STRING_MATCH, TRAINING_MODEL, free_port, model_overrides, say_row
from fake_vllm import FakeVLLM

from gym4j_client import Gym4j, LocalDeployment, Retries, RolloutFailure


def test_a_deployment_killed_and_restarted_mid_stream_loses_and_duplicates_no_rollout(command, tmp_path):
    model = FakeVLLM(delay=0.2).start()
    port = free_port()
    config = [TRAINING_MODEL, STRING_MATCH]
    first = LocalDeployment(config, model_overrides(model), head_port=port, command=command, cwd=str(tmp_path)).start()
    second = LocalDeployment(config, model_overrides(model), head_port=port, command=command, cwd=str(tmp_path))
    try:
        gym = Gym4j(first.head_url, retries=Retries(max_attempts=1, first_wait=0.1, max_wait=0.5, outage_wait=120))
        rows = [say_row(f"w{i}") for i in range(8)]
        seen = []

        async def train():
            async for item in gym.run_examples(rows, num_repeats=3, parallel=4,
                                               agent_name="string_match_simple_agent"):
                seen.append(item)
                if len(seen) == 5:
                    for _ in range(100):  # up to 10 s for a model call in flight, so the kill cuts rollouts short
                        if model.in_flight:
                            break
                        await asyncio.sleep(0.1)
                    assert model.in_flight, "no rollout was in flight to be cut short"
                    first.kill()  # the rollouts in flight die with it
                    second.start()  # same head port; the agents get new ports

        asyncio.run(train())
        assert not first.alive() and second.alive()
        assert all(not isinstance(item, RolloutFailure) for item in seen), [i for i in seen if
                                                                             isinstance(i, RolloutFailure)]
        keys = Counter((item["_ng_task_index"], item["_ng_rollout_index"]) for item in seen)
        assert sorted(keys) == [(t, k) for t in range(8) for k in range(3)]
        assert set(keys.values()) == {1}
        assert all(item["reward"] == 1.0 for item in seen)
        assert model.calls > 24  # the rollouts in flight at the kill were run again
    finally:
        first.kill()
        second.stop()
        model.stop()


def test_an_attempt_past_its_time_is_a_timeout_and_a_rollout_past_its_deadline_is_a_failure(command, tmp_path):
    model = FakeVLLM(delay=2.0).start()
    try:
        with LocalDeployment([TRAINING_MODEL, STRING_MATCH], model_overrides(model), command=command,
                             cwd=str(tmp_path)) as deployment:
            async def run(gym, **kwargs):
                return [i async for i in gym.run_examples([say_row("late")], agent_name="string_match_simple_agent",
                                                          **kwargs)]

            timed_out = asyncio.run(run(Gym4j(deployment.head_url, timeout=0.5,
                                              retries=Retries(max_attempts=2, first_wait=0.05, max_wait=0.1))))
            assert len(timed_out) == 1 and isinstance(timed_out[0], RolloutFailure)
            assert (timed_out[0].failure_class, timed_out[0].attempts) == ("timeout", 2)

            past = asyncio.run(run(Gym4j(deployment.head_url, retries=Retries(max_attempts=5)), deadline=0.7))
            assert len(past) == 1 and isinstance(past[0], RolloutFailure)
            assert past[0].failure_class == "deadline_exceeded", past[0]
    finally:
        model.stop()


def test_a_deployment_that_does_not_come_back_fails_each_remaining_rollout_once_after_the_outage_wait(command,
                                                                                                     tmp_path):
    model = FakeVLLM(delay=0.3).start()
    deployment = LocalDeployment([TRAINING_MODEL, STRING_MATCH], model_overrides(model), command=command,
                                 cwd=str(tmp_path)).start()
    try:
        gym = Gym4j(deployment.head_url, retries=Retries(max_attempts=3, first_wait=0.1, max_wait=0.3, outage_wait=2))
        seen = []

        async def train():
            async for item in gym.run_examples([say_row(f"w{i}") for i in range(6)], parallel=2,
                                               agent_name="string_match_simple_agent"):
                seen.append(item)
                if len(seen) == 1:
                    deployment.kill()

        asyncio.run(train())
        failures = [item for item in seen if isinstance(item, RolloutFailure)]
        finished = [item["_ng_task_index"] for item in seen if not isinstance(item, RolloutFailure)]
        # the rollouts that finished before the kill (one, or two finishing together), then a failure for each other
        assert 1 <= len(finished) <= 2 and len(failures) == 6 - len(finished)
        assert sorted(finished + [f.task_index for f in failures]) == list(range(6))
        for failure in failures:
            assert failure.failure_class == "agent_unreachable"
            assert "still unreachable after 2 s of waiting" in failure.message
    finally:
        deployment.kill()
        model.stop()


def test_a_rollout_waiting_for_a_slot_is_not_charged_for_the_wait(deployment, model):
    # one slot, rollouts of ~0.3 s each, a 2 s deadline: the last ones queue ~1.5 s, longer than a deadline
    # counted from the start of the stream would leave them
    model.delay = 0.3
    try:
        gym = Gym4j(deployment.head_url, retries=Retries(max_attempts=1))

        async def run():
            return [i async for i in gym.run_examples([say_row(f"q{i}") for i in range(8)], parallel=1,
                                                      agent_name="string_match_simple_agent", deadline=2)]

        items = asyncio.run(run())
        assert [i for i in items if isinstance(i, RolloutFailure)] == []
        assert len(items) == 8
    finally:
        model.delay = 0.0
