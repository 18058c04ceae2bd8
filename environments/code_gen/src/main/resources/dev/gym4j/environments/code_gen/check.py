# gym4j code_gen checker (trusted; runs in a sandbox of its own): grades one solution against LiveCodeBench-style
# tests. The solution runs in ANOTHER sandbox (candidate.py) and is asked, test by test, for its standard output
# (stdio tests) or its return value (call-based tests) through calls.py; the expected outputs stay here and the
# comparison is made here, on plain values. Reads tests.json ({"inputs", "outputs", "fn_name", "timeout"});
# prints one JSON line {"results": [...], "metadata": {...}} with LiveCodeBench's codes: True pass, -2 wrong
# answer, -3 time limit exceeded, -4 runtime or compile error.
import json
import sys
import time
from decimal import Decimal

import calls

spec = json.load(open("tests.json"))
TIMEOUT = spec["timeout"]
sys.set_int_max_str_digits(50000)
candidate = calls.Candidate()


def short(value, length=300):
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= length else text[:length // 2] + "...(truncated) ..." + text[-length // 2:]


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


def ask(request):
    """The candidate's answer to one request within the test's time: ("ok", value), ("timeout", None) or
    ("error", None) when it raised, ended or answered with something that is not a value."""
    try:
        return "ok", candidate.call(request, TIMEOUT)
    except calls.CandidateFailed as e:
        return ("timeout" if e.reason == "timeout" else "error"), None
    except Exception:
        return "error", None


def ready():
    """Loads the solution; None when it loaded, else LiveCodeBench's result for a solution that does not."""
    try:
        candidate.call({"ready": True}, TIMEOUT)
        return None
    except calls.CandidateFailed as e:
        return [-4], {"error_code": -4, "error_message": "Error during testing: %s" % e.reason}
    except Exception as e:
        return [-4], {"error_code": -4, "error_message": "Error during testing: %s" % e}


def grade_stdio():
    results, total = [], 0.0
    for given, expected in zip(spec["inputs"], spec["outputs"]):
        started = time.monotonic()
        status, answer = ask({"stdio": given})
        seconds = time.monotonic() - started
        failure = {"inputs": short(given), "expected": short(expected)}
        if status == "timeout":
            results.append(-3)
            return results, dict(failure, error_code=-3, error_message="Time Limit Exceeded")
        if status == "error" or type(answer) is not dict or answer.get("status") != "ok" \
                or type(answer.get("output")) is not str:
            results.append(-4)
            return results, dict(failure, error_code=-4, error_message="Runtime Error")
        output = answer["output"]
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
    results, total = [], 0.0
    for given, expected in zip(spec["inputs"], spec["outputs"]):
        arguments = [json.loads(line) for line in given.split("\n")]
        want = json.loads(expected)
        started = time.monotonic()
        status, prediction = ask({"call": calls.encode(arguments)})
        seconds = time.monotonic() - started
        failure = {"inputs": short(arguments), "expected": short(want)}
        if status == "timeout":
            results.append(-3)
            return results, dict(failure, error_code=-3, error_message="Time Limit Exceeded")
        if status == "error":
            results.append(-4)
            return results, dict(failure, error_code=-4, error_message="Runtime Error")
        total += seconds
        if isinstance(prediction, tuple):
            prediction = list(prediction)
        right = prediction == want
        try:
            right = right or json.dumps(prediction) == json.dumps(want)
        except Exception:
            pass
        right = right or close_enough(prediction, want)
        results.append(bool(right))
        if not right:
            return results, dict(failure, output=short(prediction), error_code=-2, error_message="Wrong Answer")
    return results, {"execution time": total}


try:
    not_loaded = ready()
    results, metadata = not_loaded or (grade_call() if spec.get("fn_name") else grade_stdio())
except BaseException as e:
    results, metadata = [-4], {"error_code": -4, "error_message": "Error during testing: %s" % e}
print(json.dumps({"results": results, "metadata": metadata}))
