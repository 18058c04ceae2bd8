"""How fast the client streams rollouts, one HTTP `/run` per rollout, against an instant scripted model: the
number that says whether a batch endpoint (NDJSON) would be worth adding on the Java side.

    python clients/python/bench/throughput.py [ROLLOUTS] [PARALLEL...]

Starts the scripted vLLM of the tests in its own process and `gym4j run` (string_match) on it, and prints, for
each parallelism, rollouts per second and the client's own CPU time per rollout, then `gym4j collect`'s rate on
the same deployment. Not a test: nothing is asserted.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "tests")]

from conftest import STRING_MATCH, TRAINING_MODEL, gym4j_command, model_overrides, say_row  # noqa: E402

from gym4j_client import Gym4j, LocalDeployment, RolloutFailure  # noqa: E402


async def client_rate(gym: Gym4j, rows, parallel: int):
    started, cpu = time.perf_counter(), time.process_time()
    count = 0
    async for item in gym.run_examples(rows, parallel=parallel, agent_name="string_match_simple_agent"):
        assert not isinstance(item, RolloutFailure), item
        count += 1
    return count / (time.perf_counter() - started), 1000 * (time.process_time() - cpu) / count


def collect_rate(command, head_url: str, rows, parallel: int, work: Path) -> float:
    data = work / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    started = time.perf_counter()
    subprocess.run(command + ["collect", "--agent", "string_match_simple_agent", "--input", str(data), "--output",
                              str(work / f"out{parallel}.jsonl"), "--parallel", str(parallel),
                              "--head", head_url], check=True, capture_output=True, cwd=work)
    return len(rows) / (time.perf_counter() - started)


def main() -> None:
    rollouts = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    parallels = [int(p) for p in sys.argv[2:]] or [1, 8, 32]
    rows = [say_row(f"w{i}") for i in range(rollouts)]
    # the model in its own process, so that the client's CPU time is the client's
    model_process = subprocess.Popen([sys.executable, "-c", "import sys, time; sys.path.insert(0, sys.argv[1]); "
                                      "from fake_vllm import FakeVLLM; m = FakeVLLM().start(); print(m.base_url, "
                                      "flush=True); time.sleep(3600)", str(HERE.parent / "tests")],
                                     stdout=subprocess.PIPE, text=True)
    model = types.SimpleNamespace(base_url=model_process.stdout.readline().strip())
    command = gym4j_command()
    with tempfile.TemporaryDirectory() as work, LocalDeployment([TRAINING_MODEL, STRING_MATCH], model_overrides(model),
                                                                command=command, cwd=work) as deployment:
        gym = Gym4j(deployment.head_url)
        asyncio.run(client_rate(gym, rows[:50], 8))  # warm-up: JIT, connections
        for parallel in parallels:
            rate, cpu_ms = asyncio.run(client_rate(gym, rows, parallel))
            print(f"client   parallel {parallel:3d}: {rate:8.1f} rollouts/s, client CPU {cpu_ms:.2f} ms per rollout")
        for parallel in parallels:
            try:
                rate = collect_rate(command, deployment.head_url, rows, parallel, Path(work))
                print(f"collect  parallel {parallel:3d}: {rate:8.1f} rollouts/s (includes its JVM start)")
            except subprocess.CalledProcessError as e:
                print(f"collect  parallel {parallel:3d}: failed: {e.stderr.decode()[-300:]}")
    model_process.kill()


if __name__ == "__main__":
    main()
