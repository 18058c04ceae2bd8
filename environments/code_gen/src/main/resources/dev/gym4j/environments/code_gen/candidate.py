# gym4j code_gen candidate (untrusted; runs in a sandbox of its own): loads solution.py as LiveCodeBench does and
# answers the checker's requests. {"ready": true} -> True once loaded; {"stdio": text} -> {"status", "output"}:
# the solution's code run in a forked child with the text as its standard input; {"call": args} -> the return
# value of fn_name (a method of Solution when the code defines that class). It never sees an expected output, and
# nothing it prints or returns is a verdict.
import ast
import os
import resource
import sys
import tempfile

import calls

STAR_MODULES = ["string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random",
                "statistics", "itertools", "functools", "operator", "io", "sys", "json", "builtins", "typing"]
PLAIN_MODULES = ["string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random",
                 "statistics", "itertools", "functools", "operator", "io", "sys", "json"]
PRELUDE = "".join("from %s import *\n" % m for m in STAR_MODULES) + "".join(
    "import %s\n" % m for m in PLAIN_MODULES) + "sys.setrecursionlimit(50000)\n"

code = open("solution.py").read()
fn_name = sys.argv[1] if len(sys.argv) > 1 else ""
output_limit = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 24
sys.set_int_max_str_digits(50000)
try:
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    resource.setrlimit(resource.RLIMIT_STACK, (hard if hard != resource.RLIM_INFINITY else 4 << 30, hard))
except (ValueError, OSError):
    pass


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


module = {"__name__": "tmp_sol"}
target = []


def setup():
    if fn_name:
        exec(PRELUDE + "\n\n" + code, module)
        target.append(getattr(module["Solution"](), fn_name) if "class Solution" in code else module[fn_name])
    else:
        exec(as_function(unwrap_main_guard(code)), module)
        target.append(module["wrapped_function"])


def run_stdio(text):
    """The solution with text as standard input, in a forked child; its standard output, cut at the limit."""
    with tempfile.TemporaryFile() as given, tempfile.TemporaryFile() as taken:
        given.write(text.encode())
        given.flush()
        given.seek(0)
        pid = os.fork()
        if pid == 0:
            os.dup2(given.fileno(), 0)
            os.dup2(taken.fileno(), 1)
            sys.stdin = open(0, "r", closefd=False)
            sys.stdout = open(1, "w", closefd=False)
            status = 0
            try:
                target[0]()
            except SystemExit:
                pass
            except BaseException:
                status = 1
            try:
                sys.stdout.flush()
            except BaseException:
                pass
            os._exit(status)
        _, wait_status = os.waitpid(pid, 0)
        taken.seek(0)
        output = taken.read(output_limit).decode("utf-8", "replace")
    ok = os.WIFEXITED(wait_status) and os.WEXITSTATUS(wait_status) == 0
    return {"status": "ok" if ok else "error", "output": output}


def handle(request):
    if "ready" in request:
        return True
    if "stdio" in request:
        return run_stdio(request["stdio"])
    return target[0](*calls.decode(request["call"]))


calls.serve(setup, handle)
