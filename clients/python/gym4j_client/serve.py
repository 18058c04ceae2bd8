"""A local gym4j deployment for a trainer process: started with it, stopped with it.

    python -m gym4j_client.serve --config environments/string_match/config.yaml \\
        --config models/configs/vllm_model_for_training.yaml +policy_base_url=http://127.0.0.1:8000/v1 \\
        +policy_model_name=my-policy +policy_api_key=EMPTY -- python train.py

starts `gym4j run` with those configs and overrides, waits until every server is ready, runs the trainer
command with GYM4J_HEAD_URL set to the head server's URL, and stops the deployment when the trainer exits
(with the trainer's exit status). Without a trainer command it serves until Ctrl-C or SIGTERM. In Python:

    with LocalDeployment(["environments/string_match/config.yaml", ...]) as deployment:
        gym = Gym4j(deployment.head_url)

The gym4j command is GYM4J_COMMAND (split like a shell line) when set, else the `gym4j` launcher of
GYM4J_HOME, of the working directory, or on PATH.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import List, Optional, Sequence

from .failures import Gym4jError

_READY = re.compile(r"^All \d+ servers ready")
_HEAD = re.compile(r"^head_server\s+head\s+\S+\s+(http://\S+)")


class DeploymentError(Gym4jError):
    """The deployment did not start, with the last lines it printed."""


def gym4j_command() -> List[str]:
    given = os.environ.get("GYM4J_COMMAND")
    if given:
        return shlex.split(given)
    candidates = []
    if os.environ.get("GYM4J_HOME"):
        candidates.append(Path(os.environ["GYM4J_HOME"]) / "gym4j")
    candidates.append(Path.cwd() / "gym4j")
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return [str(candidate)]
    on_path = shutil.which("gym4j")
    if on_path:
        return [on_path]
    raise DeploymentError("no gym4j command: set GYM4J_HOME to a gym4j clone, or GYM4J_COMMAND to the command")


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    # Linux: the deployment gets SIGTERM when the process that started it dies, even by SIGKILL
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class LocalDeployment:
    """`gym4j run` in a child process. `head_port` 0 lets the system choose; `head_url` is known once started."""

    def __init__(self, config_paths: Sequence[str], overrides: Sequence[str] = (), *, head_port: int = 0,
                 command: Optional[Sequence[str]] = None, cwd: Optional[str] = None, start_timeout: float = 180.0):
        if not config_paths:
            raise ValueError("config_paths must name at least one config file")
        self.command = list(command) if command else gym4j_command()
        self.arguments = ["run", f"+config_paths=[{','.join(config_paths)}]", f"++head_server.port={head_port}",
                          *overrides]
        self.cwd = cwd
        self.start_timeout = start_timeout
        self.head_url: Optional[str] = None
        self.output = collections.deque(maxlen=200)
        self._process: Optional[subprocess.Popen] = None
        self._reader: Optional[threading.Thread] = None

    def start(self) -> "LocalDeployment":
        env = dict(os.environ)
        # the registration secret stays in this process tree: no file, never printed
        env.setdefault("GYM4J_HEAD_SECRET", secrets.token_hex(32))
        self._process = subprocess.Popen(
            self.command + self.arguments, cwd=self.cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, bufsize=1,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None)
        ready = threading.Event()
        self._reader = threading.Thread(target=self._read, args=(ready,), daemon=True, name="gym4j-output")
        self._reader.start()
        if not ready.wait(self.start_timeout) or self.head_url is None:
            self.stop()
            last = "\n".join(list(self.output)[-20:])
            if self._process.returncode not in (None, -signal.SIGTERM):
                raise DeploymentError(f"gym4j run stopped (status {self._process.returncode}) before it was ready:\n{last}")
            raise DeploymentError(f"gym4j run was not ready within {self.start_timeout:g} s:\n{last}")
        return self

    def _read(self, ready: threading.Event) -> None:
        for line in self._process.stdout:
            line = line.rstrip("\n")
            self.output.append(line)
            head = _HEAD.match(line)
            if head:
                self.head_url = head.group(1)
            if _READY.match(line):
                ready.set()
        ready.set()  # the process ended: start() reports what it printed

    @property
    def pid(self) -> Optional[int]:
        return None if self._process is None else self._process.pid

    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM (gym4j stops every server within five seconds), then SIGKILL after `grace` seconds."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(grace)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(grace)
        self._close_output()

    def kill(self) -> None:
        """SIGKILL: the deployment dies as in a crash, with rollouts in flight."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait(10)
        self._close_output()

    def _close_output(self) -> None:
        if self._reader is not None:
            self._reader.join(5)  # the process is gone: its output ends
        if self._process is not None and self._process.stdout is not None and not self._process.stdout.closed \
                and (self._reader is None or not self._reader.is_alive()):
            self._process.stdout.close()

    def __enter__(self) -> "LocalDeployment":
        return self.start()

    def __exit__(self, *_) -> None:
        self.stop()


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    trainer: List[str] = []
    if "--" in argv:
        trainer = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    parser = argparse.ArgumentParser(prog="python -m gym4j_client.serve",
                                     description="Start a local gym4j deployment for a trainer and stop it with it.")
    parser.add_argument("--config", action="append", required=True, metavar="PATH",
                        help="a config file (environment or model), relative to the working directory or GYM4J_HOME")
    parser.add_argument("--head-port", type=int, default=11000, help="the head server's port (default 11000)")
    parser.add_argument("overrides", nargs="*", metavar="OVERRIDE", help="gym4j config overrides, e.g. +key=value")
    args = parser.parse_args(argv)
    deployment = LocalDeployment(args.config, args.overrides, head_port=args.head_port,
                                 cwd=os.environ.get("GYM4J_HOME"))
    try:
        deployment.start()
    except DeploymentError as e:
        print(f"gym4j_client.serve: {e}", file=sys.stderr)
        return 1
    print(f"gym4j deployment ready: GYM4J_HEAD_URL={deployment.head_url}", file=sys.stderr, flush=True)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    try:
        if trainer:
            child = subprocess.Popen(trainer, env={**os.environ, "GYM4J_HEAD_URL": deployment.head_url})
            while child.poll() is None and not stop.is_set() and deployment.alive():
                time.sleep(0.2)
            if child.poll() is None:
                child.terminate()
                try:
                    child.wait(30)
                except subprocess.TimeoutExpired:
                    child.kill()
            if not deployment.alive() and child.returncode == 0:
                print("gym4j_client.serve: the deployment stopped while the trainer ran", file=sys.stderr)
                return 1
            return child.returncode
        while not stop.is_set() and deployment.alive():
            stop.wait(0.5)
        return 0
    finally:
        deployment.stop()


if __name__ == "__main__":
    sys.exit(main())
