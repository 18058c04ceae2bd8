# gym4j code_fim checker (trusted; runs in a sandbox of its own): HumanEval-Infilling's check_correctness, with the
# candidate's program (prefix + completion + suffix, program.py) running in ANOTHER sandbox. Here only the task's
# test runs: every function the program defines at its top level is a proxy (calls.py) that calls the candidate's
# function there and gets back a plain value. Reads program.py only to parse the names it defines (never runs it),
# test.py, and settings.json ({"timeout", "entry_point"}); prints one JSON line
# {"result": "passed" | "timed out" | "failed: <exception>"}.
import ast
import builtins
import json
import signal
import time

import calls

program = open("program.py").read()
test = open("test.py").read()
settings = json.load(open("settings.json"))
timeout = settings["timeout"]
entry = settings["entry_point"]


class TimedOut(BaseException):
    pass


def on_alarm(signum, frame):
    raise TimedOut()


def defined_functions(source):
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    return [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


candidate = calls.Candidate()
deadline = time.monotonic() + timeout
namespace = {}
# a function named like a builtin (abs, len, sorted...) stays the builtin here: the test's own comparisons are not
# the candidate's to redefine
for name in {n for n in defined_functions(program) if not hasattr(builtins, n)} | {entry}:
    namespace[name] = candidate.function(name, lambda: deadline - time.monotonic())
signal.signal(signal.SIGALRM, on_alarm)
try:
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        exec(compile(test, "test.py", "exec"), namespace)
        namespace["check"](namespace[entry])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    result = "passed"
except TimedOut:
    result = "timed out"
except calls.CandidateFailed as e:
    result = "timed out" if e.reason == "timeout" else "failed: the candidate's process " + e.reason
except BaseException as e:
    result = "failed: %s" % e
print(json.dumps({"result": result}))
