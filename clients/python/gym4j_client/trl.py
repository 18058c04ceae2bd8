"""TRL adapters: a `reward_funcs` callable scored by a gym4j verifier, and an `environment_factory` class whose
tools are a gym4j resources server's, one server session per rollout. Neither imports TRL: they follow the
calling conventions of TRL's GRPOTrainer (trl/trainer/grpo_trainer.py: `_calculate_rewards` calls a reward
function with `prompts`, `completions`, `completion_ids` and every dataset column as lists; `environment_factory`
instances expose public methods as tools and `reset(**row)`).

A verification that fails raises VerificationFailed out of the trainer's step. It is never turned into a reward:
TRL sums a reward function's None as 0 when it is the only one, so returning None would teach reward 0.
"""

from __future__ import annotations

import inspect
import json
import keyword
import re
from typing import Any, Dict, List, Optional, Sequence, Union

import httpx

from . import failures as f
from .client import RESOURCES, Gym4j, response_from_text
from .failures import VerificationFailed

# what TRL passes besides the dataset's columns, which are not part of a task row
_TRAINER_KWARGS = {"trainer_state", "log_extra", "log_metric", "environments", "completion_ids"}
_TOOL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_RESERVED = {"seed_session", "verify", "aggregate_metrics", "reset", "get_reward"}
_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool, "array": list, "object": dict}


def completion_text(completion: Union[str, List[dict]]) -> str:
    """The text of a TRL completion: a string, or (conversational) the last assistant message's content."""
    if isinstance(completion, str):
        return completion
    for message in reversed(completion):
        if message.get("role") == "assistant":
            content = message.get("content")
            if isinstance(content, list):
                return "".join(part.get("text", "") for part in content if isinstance(part, dict))
            return content or ""
    return ""


def prompt_input(prompt: Union[str, List[dict]]) -> List[dict]:
    """A TRL prompt as Responses API input messages."""
    if isinstance(prompt, str):
        return [{"role": "user", "content": prompt}]
    return [{"role": m["role"], "content": completion_text([{"role": "assistant", "content": m.get("content")}])}
            for m in prompt if m.get("role") in ("system", "developer", "user", "assistant")]


class Gym4jReward:
    """`reward_funcs=[Gym4jReward(gym, "string_match")]`: each completion scored by the resources server's
    `/verify`, with the dataset's other columns as the task row (`expected_answer`, …). A row without
    `responses_create_params` gets one made from its prompt."""

    def __init__(self, gym: Gym4j, resources_server: str, *, parallel: int = 16, timeout: Optional[float] = None):
        gym._url(resources_server, RESOURCES)  # a wrong name fails here, not in the first training step
        self.gym = gym
        self.resources_server = resources_server
        self.parallel = parallel
        self.timeout = timeout
        self.__name__ = f"gym4j_{resources_server}"  # TRL logs rewards under the function's name

    def rows(self, prompts: Sequence[Any], **columns) -> List[dict]:
        names = [k for k in columns if k not in _TRAINER_KWARGS]
        rows = []
        for i, prompt in enumerate(prompts):
            row = {name: columns[name][i] for name in names}
            row.setdefault("responses_create_params", {"input": prompt_input(prompt)})
            rows.append(row)
        return rows

    def __call__(self, prompts: Sequence[Any], completions: Sequence[Any], **columns) -> List[float]:
        rows = self.rows(prompts, **columns)
        verdicts = self.gym.verify_many(self.resources_server, rows, [completion_text(c) for c in completions],
                                        parallel=self.parallel, timeout=self.timeout)
        for verdict in verdicts:
            if isinstance(verdict, VerificationFailed):
                raise verdict
        return [float(v["reward"]) for v in verdicts]


def _tool_method(name: str, schema: dict):
    parameters = (schema.get("parameters") or {}).get("properties") or {}
    required = set((schema.get("parameters") or {}).get("required") or [])
    for parameter in parameters:
        if not _TOOL_NAME.match(parameter) or keyword.iskeyword(parameter):
            raise ValueError(f"tool {name}: parameter name {parameter!r} is not a Python identifier")

    def call(self, **arguments):
        return self._call_tool(name, arguments)

    signature = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: Dict[str, Any] = {"return": str}
    lines = [schema.get("description") or f"The {name} tool of the gym4j environment.", "", "Args:"]
    for parameter, spec in parameters.items():
        kind = _TYPES.get(spec.get("type"), str)
        annotations[parameter] = kind if parameter in required else Optional[kind]
        signature.append(inspect.Parameter(parameter, inspect.Parameter.KEYWORD_ONLY, annotation=annotations[parameter],
                                           default=inspect.Parameter.empty if parameter in required else None))
        lines.append(f"    {parameter}: {spec.get('description') or parameter}")
    lines += ["", "Returns:", "    The tool's output, as JSON text."]
    call.__name__ = call.__qualname__ = name
    call.__doc__ = "\n".join(lines)
    call.__annotations__ = annotations
    call.__signature__ = inspect.Signature(signature, return_annotation=str)
    return call


class Gym4jEnvironment:
    """Base of the classes `tool_environment` builds: one resources server session per rollout.

    `reset(**row)` opens a session (`/seed_session` with the task row), each tool method calls the server's
    route of that name in the session, and `verify_rollout(environment, completion)` scores the rollout: the tool calls made and
    their outputs, then the final assistant text, sent to `/verify` in the same session.
    """

    gym: Gym4j
    resources_server: str
    timeout: float = 60.0

    def __init__(self):
        self._http: Optional[httpx.Client] = None
        self._row: Optional[dict] = None
        self._items: List[dict] = []

    def reset(self, **row) -> None:
        if self._http is not None:
            self._http.close()
        self._row = {k: v for k, v in row.items() if k not in ("prompt", "completion")}
        self._row.setdefault("responses_create_params", {"input": prompt_input(row.get("prompt", ""))})
        self._items = []
        # a fresh client per rollout: its cookie jar holds this rollout's session and nothing else
        self._http = httpx.Client(base_url=self.gym._url(self.resources_server, RESOURCES), timeout=self.timeout,
                                  follow_redirects=False)
        reply = self._post("/seed_session", self._row)
        if reply.status_code != 200:
            raise VerificationFailed(f.VERIFY_ERROR, f"{self.resources_server} refused seed_session with "
                                     f"{reply.status_code}: {reply.text[:200]}", reply.status_code)
        return None

    def __del__(self):
        # TRL keeps instances in a pool and never closes them: the connection goes with the instance
        if getattr(self, "_http", None) is not None:
            try:
                self._http.close()
            except Exception:  # at interpreter exit the modules closing needs may be gone already
                pass

    def _post(self, path: str, body: dict) -> httpx.Response:
        if self._http is None:
            raise RuntimeError("reset() opens the session: call it before any tool")
        try:
            return self._http.post(path, json=body)
        except httpx.TimeoutException as e:
            raise VerificationFailed(f.TIMEOUT, f"{self.resources_server}{path} gave no answer within "
                                     f"{self.timeout:g} s") from e
        except httpx.TransportError as e:
            raise VerificationFailed(f.RESOURCES_UNREACHABLE, f"{self.resources_server}{path}: {type(e).__name__}") from e

    def _call_tool(self, name: str, arguments: dict) -> str:
        arguments = {k: v for k, v in arguments.items() if v is not None}
        call_id = f"call_{len(self._items)}"
        reply = self._post(f"/{name}", arguments)
        # a refused call (a bad argument: 422 naming the field) is the model's mistake: it sees the answer
        output = reply.text
        self._items.append({"type": "function_call", "call_id": call_id, "id": call_id, "name": name,
                            "arguments": json.dumps(arguments), "status": "completed"})
        self._items.append({"type": "function_call_output", "call_id": call_id, "output": output})
        return output

    # private: TRL offers every public method to the model as a tool
    def _verify(self, completion: Union[str, List[dict]]) -> dict:
        response = response_from_text(completion_text(completion))
        response["output"] = self._items + response["output"]
        reply = self._post("/verify", {**self._row, "response": response})
        verdict = reply.json() if reply.headers.get("content-type", "").startswith("application/json") else None
        if reply.status_code != 200 or not isinstance(verdict, dict) or not isinstance(verdict.get("reward"), (int, float)):
            raise VerificationFailed(f.VERIFY_ERROR, f"{self.resources_server} answered {reply.status_code}: "
                                     f"{reply.text[:200]}", reply.status_code, verdict)
        return verdict


def tool_environment(gym: Gym4j, resources_server: str, tools: Sequence[dict], *, timeout: float = 60.0) -> type:
    """A Gym4jEnvironment class with one method per tool (the Responses API tool schemas a task row lists in
    `responses_create_params.tools`): `environment_factory=tool_environment(gym, "example_single_tool_call", tools)`.
    Only the tools given become routes the model can reach."""
    gym._url(resources_server, RESOURCES)
    methods: Dict[str, Any] = {"gym": gym, "resources_server": resources_server, "timeout": timeout}
    for tool in tools:
        name = tool.get("name") or (tool.get("function") or {}).get("name")
        schema = tool if "name" in tool else tool.get("function") or {}
        if not name or not _TOOL_NAME.match(name) or keyword.iskeyword(name) or name in _RESERVED \
                or name.startswith("_"):
            raise ValueError(f"tool name {name!r} cannot be an environment method (a Python identifier, "
                             f"not one of {sorted(_RESERVED)})")
        methods[name] = _tool_method(name, schema)
    return type(f"Gym4j_{resources_server}", (Gym4jEnvironment,), methods)


def verify_rollout(environment: Gym4jEnvironment, completion: Union[str, List[dict]]) -> dict:
    """The verify response for the rollout `environment` ran, ending with `completion`; raises VerificationFailed
    when there is no reward."""
    return environment._verify(completion)


def environment_reward(prompts, completions, environments, **_) -> List[float]:
    """`reward_funcs=[environment_reward]` with `environment_factory=tool_environment(...)`: each rollout verified
    in its own session, with the tool calls it made."""
    return [float(verify_rollout(env, c)["reward"]) for env, c in zip(environments, completions)]
