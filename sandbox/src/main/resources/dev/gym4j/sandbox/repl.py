# gym4j's Python session: runs inside the sandbox, keeps its globals between calls.
# Protocol: one JSON object per line in ({"code": ...}), one per line out
# ({"ok": bool, "out": str, "err": str, "res": str|null, "error": str}).
# The environment (names offered to the code, per-call time limit) follows NeMo Gym's math_with_code.
import io
import json
import os
import signal
import sys
from contextlib import redirect_stderr, redirect_stdout

LIMIT = int(sys.argv[1])        # characters of stdout/stderr kept per call
SECONDS = int(sys.argv[2])      # per-call time limit
CUT = "\n[output cut: the limit was reached]"

# the protocol gets private descriptors; the code's own writes to fd 1 and reads of fd 0 go nowhere
requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
null = os.open("/dev/null", os.O_RDWR)
os.dup2(null, 0)
os.dup2(null, 1)

names = {
    "print": print, "len": len, "str": str, "int": int, "float": float, "list": list, "dict": dict,
    "tuple": tuple, "set": set, "min": min, "max": max, "sum": sum, "abs": abs, "range": range,
    "enumerate": enumerate, "zip": zip, "__import__": __import__,
}
env = {"__builtins__": names}
for module, aliases in (("numpy", ("np", "numpy")), ("scipy", ("scipy",)), ("pandas", ("pd", "pandas"))):
    try:
        loaded = __import__(module)
        for alias in aliases:
            env[alias] = loaded
    except Exception:
        pass
scope = {}

NOT_EXPRESSIONS = ("print", "import", "from", "def", "class", "if", "for", "while", "try", "with")


def on_alarm(signum, frame):
    raise TimeoutError("code timed-out")


def kept(text):
    return text if len(text) <= LIMIT else text[:LIMIT] + CUT


def last_value(code):
    line = code.strip().split("\n")[-1].strip()
    if line.startswith(NOT_EXPRESSIONS):
        return None
    try:
        return str(eval(line, env, scope))
    except Exception:
        return None


signal.signal(signal.SIGALRM, on_alarm)
for request in requests:
    code = json.loads(request)["code"]
    out, err = io.StringIO(), io.StringIO()
    signal.alarm(SECONDS)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            exec(code, env, scope)
            result = last_value(code)
        reply = {"ok": True, "out": kept(out.getvalue()), "err": kept(err.getvalue()), "res": result}
    except BaseException as e:
        reply = {"ok": False, "error": kept(str(e))}
    finally:
        signal.alarm(0)
    replies.write(json.dumps(reply) + "\n")
    replies.flush()
