# gym4j evalplus: checks one solution against EvalPlus base and plus inputs, inside the sandbox.
# Reads problem.json (an EvalPlus problem: prompt, canonical_solution, entry_point, base_input, plus_input, atol),
# solution.py and settings.json ({"dataset", "min_time_limit", "gt_time_limit_factor"}). The expected outputs
# and reference times come from the canonical solution, run here first, as EvalPlus's ground truth does.
# Prints one JSON line {"base": [status, details], "plus": [status, details]}.
import copy
import io
import json
import math
import os
import signal
import sys
import time

problem = json.load(open("problem.json"))
settings = json.load(open("settings.json"))
solution = open("solution.py").read()
entry = problem["entry_point"]
sys.set_int_max_str_digits(0)


class TimeLimit(Exception):
    pass


def on_alarm(signum, frame):
    raise TimeLimit()


signal.signal(signal.SIGALRM, on_alarm)


def ground_truth(inputs):
    namespace = {}
    exec(problem["prompt"] + problem["canonical_solution"], namespace)
    function = namespace[entry]
    outputs, times = [], []
    for given in inputs:
        given = copy.deepcopy(given)
        start = time.time()
        outputs.append(function(*given))
        times.append(time.time() - start)
    return outputs, times


def is_floats(value):
    if isinstance(value, float):
        return True
    if isinstance(value, (list, tuple)) and value:
        return all(isinstance(item, float) for item in value)
    return False


def all_close(out, exp, atol):
    """numpy.allclose(out, exp, rtol=1e-07, atol=atol) for numbers and flat sequences of numbers."""
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    exps = list(exp) if isinstance(exp, (list, tuple)) else [exp]
    if len(outs) != len(exps) and len(outs) != 1 and len(exps) != 1:
        raise AssertionError()
    if len(outs) == 1 and len(exps) != 1:
        outs = outs * len(exps)
    if len(exps) == 1 and len(outs) != 1:
        exps = exps * len(outs)
    for a, b in zip(outs, exps):
        a, b = float(a), float(b)
        if math.isinf(a) or math.isinf(b):
            if a != b:
                return False
        elif not abs(a - b) <= atol + 1e-07 * abs(b):
            return False
    return True


def poly(xs, x):
    return sum(coeff * math.pow(x, i) for i, coeff in enumerate(xs))


class Silent(io.StringIO):
    def read(self, *args, **kwargs):
        raise IOError()

    readline = readlines = read


def check(inputs, expected, ref_times):
    """One EvalPlus untrusted check in a forked child: (status, details)."""
    limits = [max(settings["min_time_limit"], settings["gt_time_limit_factor"] * t) for t in ref_times]
    budget = min(60, sum(limits)) + 2
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        report = os.fdopen(write_end, "w")
        details = []
        status = "fail"
        atol = problem["atol"]
        try:
            sys.stdout = sys.stderr = sys.stdin = Silent()
            namespace = {}
            exec(solution, namespace)
            function = namespace[entry]
            for index, given in enumerate(inputs):
                try:
                    signal.setitimer(signal.ITIMER_REAL, limits[index])
                    try:
                        out = function(*copy.deepcopy(given))
                    finally:
                        signal.setitimer(signal.ITIMER_REAL, 0)
                    exp = expected[index]
                    exact = out == exp
                    if settings["dataset"] == "humaneval" and entry == "find_zero":
                        assert abs(poly(*given, out)) <= atol
                        details.append(1)
                        continue
                    if atol == 0 and is_floats(exp):
                        atol = 1e-6
                    if not exact and atol != 0:
                        assert type(out) == type(exp)
                        if isinstance(exp, (list, tuple)):
                            assert len(out) == len(exp)
                        assert all_close(out, exp, atol)
                    else:
                        assert exact
                    details.append(1)
                except BaseException:
                    details.append(0)
            status = "pass"
        except BaseException:
            status = "fail"
        report.write(json.dumps([status, details]))
        report.flush()
        os._exit(0)
    os.close(write_end)
    deadline = time.time() + budget
    chunks = []
    import select
    while True:
        left = deadline - time.time()
        if left <= 0:
            break
        ready, _, _ = select.select([read_end], [], [], left)
        if not ready:
            break
        chunk = os.read(read_end, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    if not chunks:
        return ["timeout", []]
    status, details = json.loads(b"".join(chunks))
    if status == "pass" and (len(details) != len(inputs) or not all(details)):
        status = "fail"
    return [status, details]


base_expected, base_times = ground_truth(problem["base_input"])
plus_expected, plus_times = ground_truth(problem["plus_input"])
result = {"base": check(problem["base_input"], base_expected, base_times),
          "plus": check(problem["plus_input"], plus_expected, plus_times)}
print(json.dumps(result))
