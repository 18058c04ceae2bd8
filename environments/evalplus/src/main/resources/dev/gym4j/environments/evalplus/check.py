# gym4j evalplus checker (trusted; runs in a sandbox of its own): checks one solution against EvalPlus base and
# plus inputs. The solution runs in ANOTHER sandbox (candidate.py) and is called here through a proxy (calls.py)
# that brings back plain values only; this process never runs it. Reads problem.json (an EvalPlus problem: prompt,
# canonical_solution, entry_point, base_input, plus_input, atol) and settings.json ({"dataset", "min_time_limit",
# "gt_time_limit_factor"}). The expected outputs and reference times come from the canonical solution, run here
# first, as EvalPlus's ground truth does; they never reach the candidate.
# MBPP+ ("dataset": "mbpp"): inputs that JSON cannot hold (tuples, sets, complex numbers) are rebuilt per task as
# EvalPlus's data/mbpp.py does, and its special oracles (eval/_special_oracle.py) decide some comparisons.
# Prints one JSON line {"base": [status, details], "plus": [status, details]}.
import copy
import json
import math
import sys
import time

import calls

problem = json.load(open("problem.json"))
settings = json.load(open("settings.json"))
entry = problem["entry_point"]
mbpp = settings["dataset"] == "mbpp"
sys.set_int_max_str_digits(0)


def tuples(value):
    """Every list inside value, at any depth, as a tuple."""
    if isinstance(value, list):
        return tuple(tuples(item) for item in value)
    return value


def each_as_tuple(items):
    return [tuple(item) for item in items]


# MBPP+ task number -> how one input (its list of arguments) is rebuilt; tasks not named keep their JSON values
MBPP_INPUTS = {}
for number in [2, 116, 132, 143, 222, 261, 273, 394, 399, 421, 424, 429, 470, 560, 579, 596, 616, 630, 726, 740,
               744, 809]:
    MBPP_INPUTS[number] = each_as_tuple
for number in [63, 64, 70, 94, 120, 237, 272, 299, 400, 409, 417, 438, 473, 614, 780]:
    MBPP_INPUTS[number] = lambda args: [each_as_tuple(arg) for arg in args]
for number in [75, 413, 444, 753]:
    MBPP_INPUTS[number] = lambda args: [each_as_tuple(args[0])] + [args[1]]
for number in [106, 750]:
    MBPP_INPUTS[number] = lambda args: [args[0]] + [tuple(args[1])]
for number in [250, 405, 446, 617, 720, 763, 808]:
    MBPP_INPUTS[number] = lambda args: [tuple(args[0])] + [args[1]]
for number in [259, 401, 445]:
    MBPP_INPUTS[number] = lambda args: [tuple(each_as_tuple(arg)) for arg in args]
for number in [580, 615, 791]:
    MBPP_INPUTS[number] = tuples
MBPP_INPUTS[115] = lambda args: [[set(item) if isinstance(item, list) and item else {} for item in args[0]]]
MBPP_INPUTS[124] = lambda args: (float(args[0]), complex(args[1]))
MBPP_INPUTS[252] = lambda args: [complex(args[0])]
MBPP_INPUTS[278] = lambda args: [tuple(tuple(item) if isinstance(item, list) else item for item in args[0])]
MBPP_INPUTS[307] = lambda args: [tuple(args[0]), args[1], args[2]]
MBPP_INPUTS[722] = lambda args: [{key: tuple(value) for key, value in args[0].items()}] + args[1:]

# entry points whose outputs are compared as sets, and those where only "not None" matters
MBPP_SET_EQUAL = {"similar_elements", "find_char_long", "common_in_nested_lists", "extract_singly", "larg_nnum",
                  "intersection_array", "find_dissimilar", "Diff"}
MBPP_NOT_NONE = {"check_str", "text_match_three", "text_starta_endb"}


def rebuilt(inputs):
    if not mbpp:
        return inputs
    rebuild = MBPP_INPUTS.get(int(str(problem["task_id"]).split("/")[-1]))
    return inputs if rebuild is None else [rebuild(args) for args in inputs]


def surface_area(base_edge, height):
    slant = math.sqrt((base_edge / 2) ** 2 + height ** 2)
    return round(base_edge ** 2 + 2 * base_edge * slant)


def digit_distance(first, second):
    a, b = str(first), str(second)
    width = max(len(a), len(b))
    return sum(abs(int(x) - int(y)) for x, y in zip(a.zfill(width), b.zfill(width)))


def mbpp_oracle(given, out, exp, exact, atol):
    """EvalPlus's MBPP+ special oracles: whether out counts as exact."""
    if entry == "are_equivalent":
        return True
    if entry == "sum_div":
        return exact or out == 0
    if entry == "surface_Area":
        return exact or abs(out - surface_area(*given)) <= atol
    if entry == "digit_distance_nums":
        return exact or out == digit_distance(*given)
    if entry in MBPP_SET_EQUAL:
        return set(out) == set(exp)
    if entry in MBPP_NOT_NONE:
        return out == exp if isinstance(out, bool) else exp == (out is not None)
    return exact


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


candidate = calls.Candidate()


def check(inputs, expected, ref_times):
    """One EvalPlus untrusted check, each call answered by a fresh candidate process: (status, details)."""
    limits = [max(settings["min_time_limit"], settings["gt_time_limit_factor"] * t) for t in ref_times]
    deadline = time.monotonic() + min(60, sum(limits)) + 2
    candidate.restart()
    details = []
    atol = problem["atol"]
    for index, given in enumerate(inputs):
        left = deadline - time.monotonic()
        if left <= 0:
            return ["timeout", details]
        try:
            out = candidate.call({"function": entry, "args": calls.encode(list(given)),
                                  "kwargs": calls.encode({})}, min(limits[index], left))
            exp = expected[index]
            exact = out == exp
            if mbpp:
                exact = mbpp_oracle(given, out, exp, exact, atol)
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
        except calls.CandidateFailed as e:
            if e.reason == "timeout" and time.monotonic() >= deadline:
                return ["timeout", details]
            details.append(0)
        except Exception:
            details.append(0)
    status = "pass" if len(details) == len(inputs) and all(details) else "fail"
    return [status, details]


base_input = rebuilt(problem["base_input"])
plus_input = rebuilt(problem["plus_input"])
base_expected, base_times = ground_truth(base_input)
plus_expected, plus_times = ground_truth(plus_input)
result = {"base": check(base_input, base_expected, base_times),
          "plus": check(plus_input, plus_expected, plus_times)}
print(json.dumps(result))
