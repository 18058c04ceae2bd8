# Regenerates cpython_reference.jsonl: the alternate-universe tools evaluated by CPython's float math on
# arguments like the ones models send, so that the Java tools can be checked bit for bit.
# Run: python3 cpython_reference.py > cpython_reference.jsonl
import json
import math
import random

TOOLS = {
    "multiply": lambda a, b: 1.1 * a * b,
    "divide": lambda a, b: 0.5 * a / b,
    "add": lambda a, b: a + b + 1.2,
    "subtract": lambda a, b: a - b - 3,
    "power": lambda a, b: a ** (b + 2),
    "log": lambda a, base: math.log(a, abs(base + 1.5)),
    "sin": lambda radians: math.cos(radians),
    "cos": lambda radians: math.sin(radians),
}
random.seed(7)


def value():
    kind = random.random()
    if kind < 0.4:
        return float(random.randint(-10, 10))
    if kind < 0.8:
        return random.uniform(-20, 20)
    return random.uniform(-1e6, 1e6)


for name, tool in TOOLS.items():
    for _ in range(400):
        args = {"radians": value()} if name in ("sin", "cos") else {"a": value(), ("base" if name == "log" else "b"): value()}
        if name == "power":
            args["b"] = float(random.randint(-4, 6)) if random.random() < 0.7 else random.uniform(-3, 3)
            args["a"] = abs(args["a"]) if random.random() < 0.5 else args["a"]
        try:
            result = tool(**args)
            row = {"tool": name, "args": args, "solution": result if isinstance(result, float) else None}
        except (ValueError, ZeroDivisionError, OverflowError) as e:
            row = {"tool": name, "args": args, "error": type(e).__name__}
        if isinstance(row.get("solution"), float) and not math.isfinite(row["solution"]):
            continue
        print(json.dumps(row))
