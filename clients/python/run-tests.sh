#!/usr/bin/env bash
# Runs the client's tests (pytest) with the Python of a virtual environment: GYM4J_PYTHON_ENV, default
# ~/.cache/gym4j/pyenv (.ci/run creates it from a local package source; clients/python/README.md says how).
# They start gym4j from this clone's built distribution (cli/target/dist), so they run after the cli module.
# Without the environment or its packages they are skipped with one line; with GYM4J_CI=1 that is a failure.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ENV_DIR="${GYM4J_PYTHON_ENV:-$HOME/.cache/gym4j/pyenv}"
PYTHON="$ENV_DIR/bin/python"
NEEDED="httpx pytest torch transformers trl datasets"

missing=""
if [ ! -x "$PYTHON" ]; then
  missing="no Python environment at $ENV_DIR (set GYM4J_PYTHON_ENV)"
elif ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
  missing="$PYTHON is older than Python 3.10"
elif ! "$PYTHON" -c "import importlib.util, sys; sys.exit(any(importlib.util.find_spec(m) is None for m in '$NEEDED'.split()))" 2>/dev/null; then
  missing="$ENV_DIR lacks one of: $NEEDED"
fi
if [ -n "$missing" ]; then
  if [ "${GYM4J_CI:-}" = 1 ]; then
    echo "clients/python: $missing; GYM4J_CI=1, so this is a failure" >&2
    exit 1
  fi
  echo "clients/python: Python tests skipped: $missing (see clients/python/README.md)" >&2
  exit 0
fi

# nothing written into the clone, nothing downloaded
export PYTHONDONTWRITEBYTECODE=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1
export TRL_EXPERIMENTAL_SILENCE=1 TOKENIZERS_PARALLELISM=false
cd "$HERE"
exec "$PYTHON" -m pytest -q -p no:cacheprovider "$@" tests
