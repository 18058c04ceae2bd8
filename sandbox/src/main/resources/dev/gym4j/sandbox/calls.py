# gym4j calls: the Python side of a checked run (Sandbox.runChecked). The same file sits in two sandboxes:
# - the checker's (trusted: the task's tests), where Candidate turns a function of the candidate into a proxy
#   whose calls travel, as lines on standard output, through the server to the candidate's sandbox;
# - the candidate's (untrusted: model-written code), where serve() answers those calls.
# Values cross as tagged JSON. The checker decodes an answer into plain values only (None, bool, int, float, str,
# bytes, complex, list, tuple, dict, set, frozenset): no object of a type the candidate defined ever exists in
# the checker, so an overridden __eq__, a patched module or a forged verdict cannot reach the comparison.
import builtins
import json
import os
import sys
import time

MAX_DEPTH = 200
sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


def encode(value, depth=0):
    """A value as tagged JSON; a type that has no plain counterpart is a TypeError."""
    if depth > MAX_DEPTH:
        raise ValueError("the value is nested too deeply")
    if value is None:
        return None
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        number = float(value)
        return number if number == number and number not in (float("inf"), float("-inf")) else {"float": repr(number)}
    if isinstance(value, complex):
        return {"complex": [encode(value.real), encode(value.imag)]}
    if isinstance(value, (bytes, bytearray)):
        return {"bytes": bytes(value).hex()}
    if isinstance(value, list):
        return {"list": [encode(item, depth + 1) for item in value]}
    if isinstance(value, tuple):
        return {"tuple": [encode(item, depth + 1) for item in value]}
    if isinstance(value, dict):
        return {"dict": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]}
    if isinstance(value, frozenset):
        return {"frozenset": [encode(item, depth + 1) for item in value]}
    if isinstance(value, set):
        return {"set": [encode(item, depth + 1) for item in value]}
    if hasattr(value, "item") and type(value).__module__ == "numpy":
        return encode(value.item(), depth)
    raise TypeError("cannot pass a value of type %s" % type(value).__name__)


def decode(data, depth=0):
    """Tagged JSON back into plain values; anything else is a ValueError."""
    if depth > MAX_DEPTH:
        raise ValueError("the value is nested too deeply")
    kind = type(data)
    if kind in (type(None), bool, int, float, str):
        return data
    if kind is not dict or len(data) != 1:
        raise ValueError("not a tagged value")
    (tag, body), = data.items()
    if tag == "float" and type(body) is str:
        return float(body)
    if tag == "bytes" and type(body) is str:
        return bytes.fromhex(body)
    if tag == "complex" and type(body) is list and len(body) == 2:
        return complex(_number(decode(body[0], depth + 1)), _number(decode(body[1], depth + 1)))
    if type(body) is not list:
        raise ValueError("not a tagged value")
    if tag == "dict":
        result = {}
        for pair in body:
            if type(pair) is not list or len(pair) != 2:
                raise ValueError("not a dict entry")
            result[decode(pair[0], depth + 1)] = decode(pair[1], depth + 1)
        return result
    items = [decode(item, depth + 1) for item in body]
    if tag == "list":
        return items
    if tag == "tuple":
        return tuple(items)
    if tag == "set":
        return set(items)
    if tag == "frozenset":
        return frozenset(items)
    raise ValueError("unknown tag %r" % (tag,))


def _number(value):
    if type(value) not in (int, float):
        raise ValueError("not a number")
    return value


# --- the checker's end ---------------------------------------------------------------------------------------

class CandidateFailed(Exception):
    """The candidate did not answer a call: it timed out, ended, or answered with something that is not a value."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def _raised(name, message):
    """The exception a candidate's call raised, as a builtin exception of the same name when there is one."""
    kind = getattr(builtins, name, None) if type(name) is str else None
    if not (isinstance(kind, type) and issubclass(kind, Exception)):
        kind = Exception
    try:
        return kind(message)
    except Exception:
        return Exception(message)


class Candidate:
    """The checker's link to the candidate's sandbox, through the server, over standard input and output."""

    def __init__(self):
        self._out = sys.stdout
        self._in = sys.stdin

    def request(self, request, timeout):
        """Sends one request; the candidate's answer as plain JSON data, or CandidateFailed."""
        self._out.write(json.dumps({"call": request, "timeout": max(0.001, float(timeout))}) + "\n")
        self._out.flush()
        line = self._in.readline()
        if not line:
            raise CandidateFailed("ended")
        message = json.loads(line)
        if "error" in message:
            raise CandidateFailed(message["error"])
        try:
            answer = json.loads(message["reply"])
        except Exception:
            raise CandidateFailed("malformed")
        if type(answer) is not dict:
            raise CandidateFailed("malformed")
        return answer

    def call(self, request, timeout):
        """A request whose answer is a value: the value, the exception the candidate's code raised, or
        CandidateFailed."""
        answer = self.request(request, timeout)
        if "raised" in answer:
            raised = answer["raised"]
            if type(raised) is not dict:
                raise CandidateFailed("malformed")
            raise _raised(raised.get("type"), str(raised.get("message", ""))[:2000])
        if "value" not in answer:
            raise CandidateFailed("malformed")
        try:
            return decode(answer["value"])
        except (ValueError, TypeError, RecursionError, OverflowError):
            raise CandidateFailed("malformed")

    def function(self, name, timeout):
        """A proxy for the candidate's function `name`; timeout() gives the seconds each call may take."""

        def proxy(*args, **kwargs):
            return self.call({"function": name, "args": encode(list(args)), "kwargs": encode(dict(kwargs))},
                             timeout())

        proxy.__name__ = name
        return proxy

    def restart(self):
        """Ends the candidate's process; the next call starts a fresh one."""
        self._out.write(json.dumps({"restart": True}) + "\n")
        self._out.flush()


# --- the candidate's end ---------------------------------------------------------------------------------------

def serve(setup, handle):
    """Answers requests until standard input ends. setup() loads the candidate's code; handle(request) answers
    one request with a value. The candidate's own reads and prints see /dev/null, not the request channel."""
    requests = os.fdopen(os.dup(0), "r")
    replies = os.fdopen(os.dup(1), "w")
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    sys.stdin = open(0, "r", closefd=False)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)
    failed = None
    try:
        setup()
    except BaseException as e:
        failed = e
    for line in requests:
        try:
            if failed is not None:
                raise failed
            reply = {"value": encode(handle(json.loads(line)))}
        except BaseException as e:
            reply = {"raised": {"type": type(e).__name__, "message": str(e)[:2000]}}
        replies.write(json.dumps(reply) + "\n")
        replies.flush()
    replies.close()
    os._exit(0)


def serve_functions(source, namespace=None):
    """Serves calls of the functions that `source` defines at its top level."""
    namespace = {} if namespace is None else namespace

    def setup():
        exec(compile(source, "<string>", "exec"), namespace)

    def handle(request):
        function = namespace[request["function"]]
        return function(*decode(request["args"]), **decode(request.get("kwargs", {"dict": []})))

    serve(setup, handle)
