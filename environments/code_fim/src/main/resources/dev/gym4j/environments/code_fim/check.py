# gym4j code_fim: runs one spliced program (prefix + completion + suffix + test + check call) inside the sandbox,
# as HumanEval-Infilling's check_correctness does. Reads program.py and settings.json ({"timeout"}); prints one
# JSON line {"result": "passed" | "timed out" | "failed: <exception>"}.
import io
import json
import os
import signal
import sys

program = open("program.py").read()
timeout = json.load(open("settings.json"))["timeout"]
report = os.fdopen(os.dup(1), "w")


class TimedOut(Exception):
    pass


def on_alarm(signum, frame):
    raise TimedOut()


class Silent(io.StringIO):
    def read(self, *args, **kwargs):
        raise IOError()

    readline = readlines = read


signal.signal(signal.SIGALRM, on_alarm)
sys.stdout = sys.stderr = sys.stdin = Silent()
null = os.open("/dev/null", os.O_RDWR)
os.dup2(null, 0)
os.dup2(null, 1)
os.dup2(null, 2)
try:
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        exec(program, {})
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    result = "passed"
except TimedOut:
    result = "timed out"
except BaseException as e:
    result = "failed: %s" % e
report.write(json.dumps({"result": result}) + "\n")
report.flush()
os._exit(0)
