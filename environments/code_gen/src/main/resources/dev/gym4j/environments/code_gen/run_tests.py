# gym4j code_gen: runs one solution against LiveCodeBench-style tests, inside the sandbox.
# Reads tests.json ({"inputs", "outputs", "fn_name", "timeout"}) and solution.py; prints one JSON line
# {"results": [...], "metadata": {...}} with LiveCodeBench's codes: True pass, -2 wrong answer,
# -3 time limit exceeded, -4 runtime or compile error. Each test runs in a forked child with its own time limit.
import ast
import json
import os
import resource
import select
import signal
import sys
import time
import traceback
from decimal import Decimal

STAR_MODULES = ["string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random",
                "statistics", "itertools", "functools", "operator", "io", "sys", "json", "builtins", "typing"]
PLAIN_MODULES = ["string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random",
                 "statistics", "itertools", "functools", "operator", "io", "sys", "json"]
PRELUDE = "".join("from %s import *\n" % m for m in STAR_MODULES) + "".join(
    "import %s\n" % m for m in PLAIN_MODULES) + "sys.setrecursionlimit(50000)\n"

spec = json.load(open("tests.json"))
code = open("solution.py").read()
TIMEOUT = spec["timeout"]
OUTPUT_LIMIT = spec.get("output_limit", 1 << 24)
sys.set_int_max_str_digits(50000)
try:
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    resource.setrlimit(resource.RLIMIT_STACK, (hard if hard != resource.RLIM_INFINITY else 4 << 30, hard))
except (ValueError, OSError):
    pass


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout()


signal.signal(signal.SIGALRM, on_alarm)


def short(value, length=300):
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= length else text[:length // 2] + "...(truncated) ..." + text[-length // 2:]


def unwrap_main_guard(source):
    """A last `if __name__ == '__main__':` block becomes plain code, as LiveCodeBench does."""
    try:
        tree = ast.parse(source)
        last = tree.body[-1]
        if isinstance(last, ast.If) and ast.unparse(last.test).strip() == "__name__ == '__main__'":
            return ast.unparse(tree.body[:-1]) + "\n" + ast.unparse(last.body)
    except Exception:
        pass
    return source


def as_function(source):
    """Imports stay at the top; every other statement goes into wrapped_function(), after the prelude."""
    try:
        tree = ast.parse(source)
        imports = [s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom))]
        others = [s for s in tree.body if not isinstance(s, (ast.Import, ast.ImportFrom))]
        function = ast.FunctionDef(name="wrapped_function", args=ast.arguments(
            posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=others, decorator_list=[],
            lineno=-1)
        return PRELUDE + "\n" + ast.unparse(imports) + "\n" + ast.unparse(function)
    except Exception:
        return source


def load(source):
    module = {"__name__": "tmp_sol"}
    signal.alarm(TIMEOUT)
    try:
        exec(source, module)
    finally:
        signal.alarm(0)
    return module


def run_child(target, stdin_text):
    """Runs target() in a forked child: stdin from the text, stdout captured. (status, output, seconds)."""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    started = time.time()
    pid = os.fork()
    if pid == 0:
        os.close(in_w)
        os.close(out_r)
        os.dup2(in_r, 0)
        os.dup2(out_w, 1)
        null = os.open("/dev/null", os.O_WRONLY)
        os.dup2(null, 2)
        sys.stdin = open(0, "r", closefd=False)
        sys.stdout = open(1, "w", closefd=False)
        status = 0
        try:
            target()
        except SystemExit:
            pass
        except BaseException:
            status = 1
        try:
            sys.stdout.flush()
        except BaseException:
            pass
        os._exit(status)
    os.close(in_r)
    os.close(out_w)
    data = stdin_text.encode()
    written = 0
    chunks = []
    size = 0
    deadline = started + TIMEOUT
    timed_out = False
    too_long = False
    open_out = True
    while open_out:
        left = deadline - time.time()
        if left <= 0:
            timed_out = True
            break
        writers = [in_w] if written < len(data) else []
        readable, writable, _ = select.select([out_r], writers, [], left)
        if writable:
            try:
                written += os.write(in_w, data[written:written + 65536])
            except OSError:
                written = len(data)
            if written >= len(data):
                os.close(in_w)
                in_w = -1
        if readable:
            chunk = os.read(out_r, 65536)
            if not chunk:
                open_out = False
            else:
                chunks.append(chunk)
                size += len(chunk)
                if size > OUTPUT_LIMIT:
                    too_long = True
                    break
        if not writers and in_w >= 0:
            os.close(in_w)
            in_w = -1
    if in_w >= 0:
        os.close(in_w)
    os.close(out_r)
    if timed_out or open_out:
        os.kill(pid, signal.SIGKILL)
    _, wait_status = os.waitpid(pid, 0)
    seconds = time.time() - started
    output = b"".join(chunks).decode("utf-8", "replace")
    if timed_out:
        return "timeout", output, seconds
    if too_long:
        return "ok", output, seconds
    if os.WIFEXITED(wait_status) and os.WEXITSTATUS(wait_status) == 0:
        return "ok", output, seconds
    return "error", output, seconds


def lines(text):
    return [line.strip() for line in text.strip().split("\n")]


def decimals(line):
    try:
        return True, [Decimal(item) for item in line.split()]
    except Exception:
        return False, []


def same_stdio(prediction, expected):
    got, want = lines(prediction), lines(expected)
    if len(got) != len(want):
        return "Wrong answer: mismatched output length"
    for index, (a, b) in enumerate(zip(got, want)):
        message = "Wrong answer at output_line_idx=%d: %s != %s" % (index, short(a), short(b))
        if a == b:
            continue
        ok_a, da = decimals(a)
        ok_b, db = decimals(b)
        if not ok_a or not ok_b or da != db:
            return message
    return None


def grade_stdio():
    module = load(as_function(unwrap_main_guard(code)))
    function = module["wrapped_function"]
    results, total = [], 0.0
    for given, expected in zip(spec["inputs"], spec["outputs"]):
        status, output, seconds = run_child(function, given)
        failure = {"inputs": short(given), "expected": short(expected)}
        if status == "timeout":
            results.append(-3)
            return results, dict(failure, error_code=-3, error_message="Time Limit Exceeded")
        if status == "error":
            results.append(-4)
            return results, dict(failure, error_code=-4, error_message="Runtime Error")
        total += seconds
        wrong = same_stdio(output, expected)
        if wrong is not None:
            results.append(-2)
            return results, {"output": short(output), "inputs": short(given), "expected": short(expected),
                             "error_code": -2, "error_message": wrong}
        results.append(True)
    return results, {"execution time": total}


def close_enough(prediction, expected):
    try:
        a, b = float(prediction), float(expected)
        return abs(a - b) <= 1e-08 + 1e-05 * abs(b)
    except Exception:
        return False


def grade_call():
    source = PRELUDE + "\n\n" + code
    module = load(source)
    target = module["Solution"]() if "class Solution" in code else None
    method = getattr(target, spec["fn_name"]) if target is not None else module[spec["fn_name"]]
    results, total = [], 0.0
    for given, expected in zip(spec["inputs"], spec["outputs"]):
        arguments = [json.loads(line) for line in given.split("\n")]
        want = json.loads(expected)

        def call():
            prediction = method(*arguments)
            if isinstance(prediction, tuple):
                prediction = list(prediction)
            right = prediction == want
            try:
                right = right or json.dumps(prediction) == json.dumps(want)
            except Exception:
                pass
            right = right or close_enough(prediction, want)
            sys.stdout.write(json.dumps({"right": bool(right), "output": short(prediction)}))

        status, output, seconds = run_child(call, "")
        failure = {"inputs": short(arguments), "expected": short(want)}
        if status == "timeout":
            results.append(-3)
            return results, dict(failure, error_code=-3, error_message="Time Limit Exceeded")
        if status == "error" or not output:
            results.append(-4)
            return results, dict(failure, error_code=-4, error_message="Runtime Error")
        total += seconds
        verdict = json.loads(output)
        results.append(verdict["right"])
        if not verdict["right"]:
            return results, dict(failure, output=verdict["output"], error_code=-2, error_message="Wrong Answer")
    return results, {"execution time": total}


try:
    results, metadata = grade_call() if spec.get("fn_name") else grade_stdio()
except BaseException as e:
    results, metadata = [-4], {"error_code": -4, "error_message": "Error during testing: %s" % e}
print(json.dumps({"results": results, "metadata": metadata}))
