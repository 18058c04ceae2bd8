"""Fixtures: a scripted vLLM and real gym4j deployments (`gym4j run` in a child process, as a trainer starts it).

The gym4j command is GYM4J_COMMAND when set; otherwise the built distribution of this clone (cli/target/dist,
which `./mvnw package` or the first `./gym4j` call builds) run with GYM4J_JAVA, or a JDK 25 found as the
launcher finds one.
"""

from __future__ import annotations

import glob
import os
import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the package, without installing it
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fake_vllm import FakeVLLM  # noqa: E402
from gym4j_client import LocalDeployment  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
STRING_MATCH = "environments/string_match/config.yaml"
SINGLE_TOOL_CALL = "environments/example_single_tool_call/config.yaml"
TRAINING_MODEL = "models/configs/vllm_model_for_training.yaml"


def _java_major(java: str) -> int:
    try:
        out = subprocess.run([java, "-XshowSettings:properties", "-version"], capture_output=True, text=True,
                             timeout=30).stderr
    except (OSError, subprocess.TimeoutExpired):
        return 0
    found = re.search(r"java\.specification\.version = (\d+)", out)
    return int(found.group(1)) if found else 0


def _java() -> str:
    candidates = [os.environ.get("GYM4J_JAVA", "")]
    if os.environ.get("JAVA_HOME"):
        candidates.append(os.path.join(os.environ["JAVA_HOME"], "bin", "java"))
    candidates += sorted(glob.glob("/usr/lib/jvm/*/bin/java"))
    for java in candidates:
        if java and os.access(java, os.X_OK) and _java_major(java) >= 25:
            return java
    raise RuntimeError("no JDK 25: set GYM4J_JAVA or JAVA_HOME")


def gym4j_command() -> list:
    if os.environ.get("GYM4J_COMMAND"):
        return shlex.split(os.environ["GYM4J_COMMAND"])
    lib = ROOT / "cli" / "target" / "dist" / "lib"
    if not lib.is_dir():
        raise RuntimeError(f"no gym4j distribution at {lib}: build it first (./mvnw -B -ntp -DskipTests package)")
    return [_java(), "--enable-native-access=ALL-UNNAMED", f"-Dgym4j.home={ROOT}", "-cp", f"{lib}/*",
            "dev.gym4j.cli.Main"]


@pytest.fixture(scope="session")
def command():
    return gym4j_command()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def model_overrides(model: FakeVLLM) -> list:
    return [f"+policy_base_url={model.base_url}", "+policy_api_key=EMPTY", "+policy_model_name=fake-policy",
            # vLLM's prompt and generation ids on every answer, as NeMo RL's server gives them
            "++policy_model.responses_api_models.vllm_model.request_prompt_and_generation_token_ids=true"]


@pytest.fixture(scope="session")
def model():
    fake = FakeVLLM().start()
    yield fake
    fake.stop()


@pytest.fixture(scope="session")
def deployment(model, command, tmp_path_factory):
    """string_match and example_single_tool_call with their simple agents, on the scripted vLLM."""
    with LocalDeployment([TRAINING_MODEL, STRING_MATCH, SINGLE_TOOL_CALL], model_overrides(model), command=command,
                         cwd=str(tmp_path_factory.mktemp("deployment"))) as running:
        yield running


def say_row(word: str, **extra) -> dict:
    """A string_match task whose reward is 1 when the model answers \\boxed{word}."""
    return {"responses_create_params": {"input": [{"role": "user", "content": f"Say {word}"}]},
            "expected_answer": word, "extraction_mode": "boxed", **extra}


def other_row(expected: str) -> dict:
    """A string_match task the scripted model gets wrong (it answers \\boxed{nothing}): reward 0."""
    return {"responses_create_params": {"input": [{"role": "user", "content": f"Name {expected}"}]},
            "expected_answer": expected, "extraction_mode": "boxed"}
