# gym4j bigcodebench: runs a solution's unittest TestCases inside the sandbox, as BigCodeBench does.
# Reads task.json ({"code", "prompt", "test_code"}); prints one JSON line {"status", "details"}:
# "pass", "fail" (details: test name -> traceback), "timeout", or "skipped" (details: missing_libraries)
# when a library the task itself imports is not installed.
import ast
import builtins
import importlib.util
import json
import os
import sys
import types
import unittest

task = json.load(open("task.json"))


def imported(source):
    """The top-level modules a source imports (absolute imports only)."""
    names = set()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return names
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


# the task's own needs (its prompt and tests), not what the model chose to import
required = imported(task["prompt"]) | imported(task["test_code"])
missing = sorted(m for m in required if importlib.util.find_spec(m) is None)
if missing:
    print(json.dumps({"status": "skipped", "details": {"missing_libraries": missing}}))
    sys.exit(0)

report = os.fdopen(os.dup(1), "w")
null = os.open("/dev/null", os.O_WRONLY)
os.dup2(null, 1)
os.makedirs("/tmp/work", exist_ok=True)
os.chdir("/tmp/work")
name = "__test__"
module = types.ModuleType(name)
module.__dict__.update({"__builtins__": builtins, "__file__": name + ".py", "__package__": None, "__doc__": None,
                        "sys": sys, "os": os, "environ": os.environ})
details = {}
try:
    exec(compile(task["code"] + "\n" + task["test_code"], name + ".py", "exec"), module.__dict__)
    sys.modules[name] = module
    suite = unittest.TestLoader().loadTestsFromTestCase(module.TestCases)
    result = unittest.TestResult()
    suite.run(result)
    for test, trace in result.failures + result.errors:
        details[test.id().split(".")[-1]] = trace
    status = "fail" if details else "pass"
except BaseException as e:
    details["ALL"] = "%s: %s" % (type(e).__name__, e)
    status = "fail"
report.write(json.dumps({"status": status, "details": details}) + "\n")
report.flush()
os._exit(0)
