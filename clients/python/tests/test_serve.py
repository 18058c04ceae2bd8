"""`python -m gym4j_client.serve`: a deployment started for a trainer command and stopped with it."""

from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from conftest import STRING_MATCH, TRAINING_MODEL, free_port, model_overrides

PACKAGE_DIR = str(Path(__file__).resolve().parents[1])

TRAINER = """
import os, sys
sys.path.insert(0, {package!r})
from gym4j_client import Gym4j
gym = Gym4j(os.environ["GYM4J_HEAD_URL"])
print("agents:", ",".join(gym.agents()))
print("reward:", gym.verify("string_match", {{"expected_answer": "x", "extraction_mode": "boxed"}}, "\\\\boxed{{x}}")["reward"])
"""


def serve(command, model, port, tmp_path, *trainer):
    env = {**os.environ, "GYM4J_COMMAND": shlex.join(command), "PYTHONPATH": PACKAGE_DIR}
    argv = [sys.executable, "-m", "gym4j_client.serve", "--config", TRAINING_MODEL, "--config", STRING_MATCH,
            "--head-port", str(port), *model_overrides(model)]
    if trainer:
        argv += ["--", *trainer]
    return subprocess.Popen(argv, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def wait_until(condition, seconds: float) -> bool:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def test_serve_runs_the_trainer_against_the_deployment_and_stops_it_after(command, model, tmp_path):
    port = free_port()
    process = serve(command, model, port, tmp_path, sys.executable, "-c", TRAINER.format(package=PACKAGE_DIR))
    out, err = process.communicate(timeout=240)
    assert process.returncode == 0, err
    assert "agents: string_match_simple_agent" in out
    assert "reward: 1.0" in out
    assert f"GYM4J_HEAD_URL=http://127.0.0.1:{port}" in err
    assert not listening(port)


def test_the_deployment_stops_when_the_process_that_started_it_is_killed(command, model, tmp_path):
    port = free_port()
    process = serve(command, model, port, tmp_path)
    try:
        assert wait_until(lambda: listening(port), 120), "the deployment never listened"
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        assert wait_until(lambda: not listening(port), 30), "the deployment outlived the process that started it"
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=10)


def test_a_deployment_that_cannot_start_is_one_error_with_what_gym4j_said(command, tmp_path):
    env = {**os.environ, "GYM4J_COMMAND": shlex.join(command), "PYTHONPATH": PACKAGE_DIR}
    process = subprocess.run([sys.executable, "-m", "gym4j_client.serve", "--config", "environments/no_such/config.yaml",
                              "--head-port", str(free_port())], env=env, cwd=tmp_path, capture_output=True, text=True,
                             timeout=120)
    assert process.returncode == 1
    assert "gym4j_client.serve: gym4j run stopped (status" in process.stderr
    assert "no_such" in process.stderr
