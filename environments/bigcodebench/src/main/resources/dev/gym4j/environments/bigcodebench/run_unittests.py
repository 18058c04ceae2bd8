# gym4j bigcodebench: runs a solution's unittest TestCases inside the sandbox, as BigCodeBench does. Reads one
# line of standard input first ({"nonce", "canary"}: fresh for each run, from the server) and task.json
# ({"code", "prompt", "test_code"}); prints one JSON line {"nonce", "status": "skipped", "details"} when a library
# the task itself imports is not installed, else {"nonce", "tests": {name: "pass" | "fail" | "error" | "skipped"},
# "details": {name: traceback}, "tampered": bool}. The server decides the verdict from that line (see
# BigCodeBench.java), not this script.
#
# BigCodeBench's tests patch the solution's own modules and look into what it returns, so they must share its
# interpreter; that interpreter is the model's, and whatever this script prints the model's code could print too.
# What keeps a forged report from scoring: the server accepts exactly one line, with this run's nonce (which
# only this script's memory holds: it came on standard input, now /dev/null, and lives in reporter()'s closure),
# naming every test of the task and canaries (tests under random names, among the real ones, that must fail: a
# patched assertion, result or runner makes them pass and the report is refused); builtins, unittest, json and os
# are compared before and after (a change is "tampered"); the writer uses only what it bound before the solution
# ran. A solution that exits early, kills the runner or runs out of time has no report. What remains: code that
# digs the nonce and the canary names out of this process's memory (gc, frames) and writes a report itself.
import ast
import builtins
import importlib.util
import json
import os
import random
import sys
import types
import unittest

run = json.loads(sys.stdin.readline())
canary = run["canary"]
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
    print(json.dumps({"nonce": run["nonce"], "status": "skipped", "details": {"missing_libraries": missing}}))
    sys.exit(0)

WATCHED = [builtins.__dict__, unittest.TestCase.__dict__, unittest.TestResult.__dict__, unittest.TestSuite.__dict__,
           unittest.TestLoader.__dict__, unittest.case.__dict__, unittest.result.__dict__, unittest.suite.__dict__,
           json.__dict__, json.encoder.__dict__, json.JSONEncoder.__dict__, os.__dict__]


def reporter(nonce, fd, watched=tuple(WATCHED), encode=json.JSONEncoder().encode, write=os.write, dict=dict,
             zip=zip, any=any, len=len, exit=os._exit):
    """The report's only writer. What it needs was bound here, before the solution ran, so patching json, os,
    builtins or this module's globals does not change what it writes."""
    before = [dict(namespace) for namespace in watched]
    # written as it is when anything watched changed: the encoder itself may be what was patched
    tampered_line = (encode({"nonce": nonce, "tests": {}, "details": {}, "tampered": True}) + "\n").encode()

    def finish(tests, details):
        line = None
        for namespace, then in zip(watched, before):
            now = dict(namespace)
            if now.keys() != then.keys() or any(now[key] is not then[key] for key in then):
                line = tampered_line
        if line is None:
            line = (encode({"nonce": nonce, "tests": tests, "details": details, "tampered": False}) + "\n").encode()
        while line:
            line = line[write(fd, line):]
        exit(0)

    return finish


def canaries():
    """Tests that must fail (or error), under this run's random names and the real tests' class name."""

    def equal(self):
        self.assertEqual(1, 2)

    def true(self):
        self.assertTrue(False)

    def statement(self):
        assert False

    def raises(self):
        raise ValueError(canary)

    def fails(self):
        self.fail(canary)

    methods = {"test_%s_%d" % (canary, i): f for i, f in enumerate([equal, true, statement, raises, fails])}
    return type("TestCases", (unittest.TestCase,), dict(methods, __module__="__test__")), sorted(methods)


finish = reporter(run.pop("nonce"), os.dup(1))
del run
null = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(null, fd)
os.makedirs("/tmp/work", exist_ok=True)
os.chdir("/tmp/work")
name = "__test__"
module = types.ModuleType(name)
module.__dict__.update({"__builtins__": builtins, "__file__": name + ".py", "__package__": None, "__doc__": None,
                        "sys": sys, "os": os, "environ": os.environ})
Canary, canary_names = canaries()
order = random.Random(os.urandom(16))
tests, details = {}, {}
try:
    exec(compile(task["code"] + "\n" + task["test_code"], name + ".py", "exec"), module.__dict__)
    sys.modules[name] = module
    loader = unittest.TestLoader()
    cases = list(loader.loadTestsFromTestCase(module.TestCases))
    for case in loader.loadTestsFromTestCase(Canary):
        cases.insert(order.randrange(len(cases) + 1), case)
    result = unittest.TestResult()
    unittest.TestSuite(cases).run(result)
    for case in cases:
        tests[case.id().split(".")[-1]] = "pass"
    for case, _ in result.skipped:
        tests[case.id().split(".")[-1]] = "skipped"
    for outcome, found in (("fail", result.failures), ("error", result.errors)):
        for case, trace in found:
            test = case.id().split(".")[-1]
            tests[test] = outcome
            if test not in canary_names:
                details[test] = trace
except BaseException as e:
    details["ALL"] = "%s: %s" % (type(e).__name__, e)
finish(tests, details)
