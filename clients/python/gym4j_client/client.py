"""The client: discovery through the head server, a stream of scored rollouts, and rewards for given responses."""

from __future__ import annotations

import asyncio
import copy
import http.cookiejar
import random
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import AsyncIterator, Dict, Iterable, List, Optional, Sequence, Union

import httpx

from . import failures as f
from .failures import DiscoveryError, RolloutFailure, VerificationFailed
from .rows import AGENT_REF, ATTEMPT_INDEX, ROLLOUT_INDEX, TASK_INDEX, expand

AGENTS = "responses_api_agents"
RESOURCES = "resources_servers"
FAILURE_CLASS = "_ng_failure_class"
FAILURE_TERMINAL = "_ng_failure_terminal"


def no_cookies() -> http.cookiejar.CookieJar:
    """A cookie jar that keeps nothing. Every /run and /verify is its own session on the server: a cookie kept
    from one (a resources server's session) would make the next one a call in a session that has ended."""
    return http.cookiejar.CookieJar(policy=http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))


@dataclass(frozen=True)
class Instance:
    """A server instance as the head server lists it (`GET /server_instances`)."""

    name: str
    kind: str
    implementation: str
    url: str


@dataclass(frozen=True)
class Retries:
    """How a rollout is tried again. Waits grow from `first_wait` to `max_wait` with jitter, as `gym4j collect`."""

    max_attempts: int = 3
    first_wait: float = 1.0
    max_wait: float = 10.0
    outage_wait: float = 600.0  # how long unreachable servers are waited for, without using attempts

    def backoff(self, n: int) -> float:
        base = min(self.max_wait, self.first_wait * (2 ** max(0, n - 1)))
        return base * random.uniform(0.5, 1.0)


def response_from_text(text: str, model: str = "trainer") -> dict:
    """A Responses API `response` holding one assistant message: what `verify` sends for a generated text."""
    return {
        "id": f"resp_{uuid.uuid4().hex}",
        "object": "response",
        "created_at": int(time.time()),
        "model": model,
        "status": "completed",
        "output": [{
            "id": f"msg_{uuid.uuid4().hex}",
            "type": "message",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


def error_detail(body) -> Optional[str]:
    """The `detail` of a gym4j error body as one line: its text, or each invalid field as `a.b: message`."""
    detail = body.get("detail") if isinstance(body, dict) else None
    if isinstance(detail, list):
        return "; ".join(".".join(str(part) for part in (entry.get("loc") or [])[1:]) + ": " + str(entry.get("msg"))
                         for entry in detail if isinstance(entry, dict))
    return detail if isinstance(detail, str) else None


class Gym4j:
    """A gym4j deployment, found through its head server (`gym4j run` prints its URL; port 11000 by default).

    Config is trusted, rows are not: a row may only name an agent the head server lists, and the client only
    ever calls the URLs the head server gives.
    """

    def __init__(self, head_url: str = "http://127.0.0.1:11000", *, timeout: float = 600.0,
                 retries: Retries = Retries(), discovery_timeout: float = 10.0):
        if not head_url.startswith(("http://", "https://")):
            raise ValueError(f"head_url must start with http:// or https://, got {head_url!r}")
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout}")
        self.head_url = head_url.rstrip("/")
        self.timeout = timeout
        self.retries = retries
        self.discovery_timeout = discovery_timeout
        self._instances: Dict[str, Instance] = {}
        self._lock = threading.Lock()
        self._refreshed_at = 0.0

    # -- discovery ---------------------------------------------------------------------------------------------

    def refresh(self) -> Dict[str, Instance]:
        """Asks the head server what runs where (raises DiscoveryError when it cannot be asked)."""
        try:
            reply = httpx.get(f"{self.head_url}/server_instances", timeout=self.discovery_timeout)
        except httpx.HTTPError as e:
            raise DiscoveryError(f"head server {self.head_url} cannot be reached: {type(e).__name__}") from e
        return self._remember(reply)

    async def arefresh(self, http: httpx.AsyncClient) -> Dict[str, Instance]:
        try:
            reply = await http.get(f"{self.head_url}/server_instances", timeout=self.discovery_timeout)
        except httpx.HTTPError as e:
            raise DiscoveryError(f"head server {self.head_url} cannot be reached: {type(e).__name__}") from e
        return self._remember(reply)

    def _remember(self, reply: httpx.Response) -> Dict[str, Instance]:
        if reply.status_code != 200:
            raise DiscoveryError(f"head server {self.head_url} answered {reply.status_code} to GET /server_instances")
        try:
            listed = reply.json()
            instances = {r["process_name"]: Instance(r["process_name"], r["server_type"], r.get("name", ""), r["url"])
                         for r in listed}
        except (ValueError, KeyError, TypeError) as e:
            raise DiscoveryError(f"head server {self.head_url} gave a server list that is not one") from e
        with self._lock:
            self._instances = instances
            self._refreshed_at = time.monotonic()
        return instances

    def instances(self) -> Dict[str, Instance]:
        with self._lock:
            known = dict(self._instances)
        return known or self.refresh()

    def agents(self) -> List[str]:
        """The names of the agents the deployment runs (what `agent_ref.name` may be)."""
        return sorted(n for n, i in self.instances().items() if i.kind == AGENTS)

    def _url(self, name: str, kind: str) -> str:
        instance = self.instances().get(name)
        if instance is None or instance.kind != kind:
            raise DiscoveryError(f"the deployment at {self.head_url} runs no {kind} instance named {name!r}")
        return instance.url.rstrip("/")

    # -- rollouts ----------------------------------------------------------------------------------------------

    async def run_examples(self, rows: Iterable[dict], num_repeats: int = 1, parallel: int = 64, *,
                           agent_name: Optional[str] = None, add_seed: bool = False,
                           deadline: Optional[float] = None) -> AsyncIterator[Union[dict, RolloutFailure]]:
        """Runs every row `num_repeats` times through its agent's `/run`; yields each rollout as it finishes.

        A finished rollout is the agent's verify response with NeMo Gym's fields stamped on it (`_ng_task_index`,
        `_ng_rollout_index`, `agent_ref`, and `_ng_attempt_index` on a retry): `reward`, and `response` with the
        model's token ids when its model server gives them. A rollout that cannot finish is yielded once as a
        `RolloutFailure`, after `retries.max_attempts` attempts; servers that cannot be reached (a deployment
        restarting) are waited for up to `retries.outage_wait` seconds without using attempts, and the head
        server is asked again where the agents now are. At most `parallel` rollouts are in flight; each attempt
        has `timeout` seconds, and `deadline` (seconds) bounds a rollout's attempts and waits together.
        Each (task, rollout) pair is yielded exactly once.
        """
        if parallel < 1:
            raise ValueError(f"parallel must be at least 1, got {parallel}")
        if deadline is not None and deadline <= 0:
            raise ValueError(f"deadline must be positive, got {deadline}")
        expanded = expand(rows, num_repeats, agent_name, add_seed)
        if not expanded:
            return
        limits = httpx.Limits(max_connections=parallel, max_keepalive_connections=parallel)
        async with httpx.AsyncClient(limits=limits, follow_redirects=False, cookies=no_cookies()) as http:
            known = await self.arefresh(http)
            unknown = sorted({r[AGENT_REF]["name"] for r in expanded
                              if r[AGENT_REF]["name"] not in known or known[r[AGENT_REF]["name"]].kind != AGENTS})
            if unknown:
                raise DiscoveryError(f"agent_ref names agents the deployment at {self.head_url} does not run: "
                                     f"{', '.join(unknown)}; it runs "
                                     f"{', '.join(sorted(n for n, i in known.items() if i.kind == AGENTS)) or 'none'}")
            slots = asyncio.Semaphore(parallel)
            pending = [asyncio.ensure_future(self._rollout(http, slots, row, deadline)) for row in expanded]
            try:
                for next_done in asyncio.as_completed(pending):
                    yield await next_done
            finally:
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)

    async def run(self, row: dict, *, agent_name: Optional[str] = None,
                  deadline: Optional[float] = None) -> Union[dict, RolloutFailure]:
        """One rollout of one row (an agent loop's per-sample call): its result, or its RolloutFailure."""
        async for item in self.run_examples([row], agent_name=agent_name, parallel=1, deadline=deadline):
            return item
        raise AssertionError("run_examples yields one item per rollout")

    async def _rollout(self, http: httpx.AsyncClient, slots: asyncio.Semaphore, row: dict,
                       deadline: Optional[float]) -> Union[dict, RolloutFailure]:
        loop = asyncio.get_running_loop()
        ends: Optional[float] = None  # the deadline runs from the rollout's first slot, not from its queueing
        outage_since: Optional[float] = None
        attempts, waits = 0, 0
        failure: Optional[RolloutFailure] = None
        while True:
            async with slots:
                if deadline is not None and ends is None:
                    ends = loop.time() + deadline
                left = None if ends is None else ends - loop.time()
                if left is not None and left <= 0:
                    message = f"the rollout's deadline of {deadline:g} s passed"
                    if failure is not None:
                        message += f" (last failure: {failure.failure_class}: {failure.message})"
                    return self._failure(row, f.DEADLINE_EXCEEDED, message, attempts)
                request = copy.deepcopy(row)
                if attempts > 0:
                    request[ATTEMPT_INDEX] = attempts
                outcome = await self._attempt(http, request, self.timeout if left is None else min(self.timeout, left),
                                              attempts)
            if isinstance(outcome, dict):
                return outcome
            if outcome.failure_class == f.AGENT_UNREACHABLE:
                now = loop.time()
                outage_since = outage_since if outage_since is not None else now
                if now - outage_since < self.retries.outage_wait:
                    waits += 1
                    await asyncio.sleep(self._bounded(self.retries.backoff(waits), ends, loop))
                    await self._refresh_quietly(http)
                    continue
                outcome = self._failure(request, f.AGENT_UNREACHABLE, outcome.message + " (still unreachable after "
                                        f"{self.retries.outage_wait:g} s of waiting)", attempts + 1)
            outage_since, waits = None, 0
            attempts += 1
            failure = outcome
            if outcome.row.get(FAILURE_TERMINAL) or attempts >= self.retries.max_attempts:
                return outcome
            await asyncio.sleep(self._bounded(self.retries.backoff(attempts), ends, loop))

    @staticmethod
    def _bounded(wait: float, ends: Optional[float], loop) -> float:
        return wait if ends is None else max(0.0, min(wait, ends - loop.time()))

    async def _refresh_quietly(self, http: httpx.AsyncClient) -> None:
        # many rollouts wait at once during an outage: one of them asks the head server at a time
        if time.monotonic() - self._refreshed_at < 0.5:
            return
        try:
            await self.arefresh(http)
        except DiscoveryError:
            pass  # the head server is down too; the next wait asks again

    async def _attempt(self, http: httpx.AsyncClient, request: dict, timeout: float,
                       attempts: int) -> Union[dict, RolloutFailure]:
        agent = request[AGENT_REF]["name"]
        with self._lock:
            instance = self._instances.get(agent)
        if instance is None or instance.kind != AGENTS:
            # listed when the stream started, not now: the deployment is restarting
            return self._failure(request, f.AGENT_UNREACHABLE, f"the head server {self.head_url} does not list "
                                 f"agent {agent} at the moment", attempts + 1)
        url = instance.url.rstrip("/")
        try:
            reply = await http.post(f"{url}/run", json=request, timeout=timeout)
        except httpx.TimeoutException as e:
            if isinstance(e, (httpx.ConnectTimeout, httpx.PoolTimeout)):
                return self._failure(request, f.AGENT_UNREACHABLE, f"agent {agent} at {url}: {type(e).__name__}",
                                     attempts + 1)
            return self._failure(request, f.TIMEOUT, f"agent {agent} gave no result within {timeout:g} s",
                                 attempts + 1)
        except httpx.TransportError as e:
            # refused, reset or closed under the request: the agent's process is gone or restarting
            return self._failure(request, f.AGENT_UNREACHABLE, f"agent {agent} at {url}: {type(e).__name__}",
                                 attempts + 1)
        try:
            body = reply.json()
        except ValueError:
            return self._failure(request, f.AGENT_ERROR, f"agent {agent} answered {reply.status_code} with a body "
                                 "that is not JSON", attempts + 1)
        if reply.status_code != 200 or not isinstance(body, dict):
            failure_class = body.get(FAILURE_CLASS) if isinstance(body, dict) else None
            return self._failure(request, failure_class or f"http_{reply.status_code}",
                                 error_detail(body) or f"agent {agent} answered {reply.status_code}",
                                 attempts + 1, body if isinstance(body, dict) else None)
        if FAILURE_CLASS in body:
            return self._failure(request, str(body[FAILURE_CLASS]), str(body.get("_ng_failure_message", "the "
                                 "verifier reported a failure")), attempts + 1, body)
        reward = body.get("reward")
        if not isinstance(reward, (int, float)) or isinstance(reward, bool):
            return self._failure(request, f.VERIFY_ERROR, "the result has no numeric reward", attempts + 1, body)
        for stamp in (TASK_INDEX, ROLLOUT_INDEX, ATTEMPT_INDEX, AGENT_REF):
            if stamp in request:
                body[stamp] = request[stamp]
        return body

    @staticmethod
    def _failure(request: dict, failure_class: str, message: str, attempts: int,
                 body: Optional[dict] = None) -> RolloutFailure:
        row = dict(request)
        if body is not None and body.get(FAILURE_TERMINAL):
            row[FAILURE_TERMINAL] = True
        response = body.get("response") if body is not None and isinstance(body.get("response"), dict) else None
        return RolloutFailure(request[TASK_INDEX], request[ROLLOUT_INDEX], failure_class, message, attempts, row,
                              response)

    # -- rewards for responses the trainer generated -------------------------------------------------------------

    def verify(self, resources_server: str, row: dict, response: Union[str, dict], *,
               timeout: Optional[float] = None, http: Optional[httpx.Client] = None) -> dict:
        """The verify response (with `reward`) for one task row and one response the trainer generated.

        `response` is a Responses API response, or the text of one assistant message. Raises
        VerificationFailed when no reward can be given: the verifier refused the row or the response (its 4xx
        names the field), failed, or could not be reached in time. A failure is never turned into a reward.
        """
        url = self._url(resources_server, RESOURCES)
        body = dict(row)
        body.pop(AGENT_REF, None)
        body.setdefault("responses_create_params", {"input": []})
        body["response"] = response_from_text(response) if isinstance(response, str) else response
        limit = self.timeout if timeout is None else timeout
        try:
            if http is None:
                with httpx.Client(follow_redirects=False, cookies=no_cookies()) as one:
                    reply = one.post(f"{url}/verify", json=body, timeout=limit)
            else:
                reply = http.post(f"{url}/verify", json=body, timeout=limit)
        except httpx.TimeoutException as e:
            raise VerificationFailed(f.TIMEOUT, f"{resources_server} gave no verdict within {limit:g} s") from e
        except httpx.TransportError as e:
            raise VerificationFailed(f.RESOURCES_UNREACHABLE, f"{resources_server} at {url}: {type(e).__name__}") from e
        try:
            verdict = reply.json()
        except ValueError:
            verdict = None
        if reply.status_code != 200 or not isinstance(verdict, dict):
            detail = error_detail(verdict)
            failure_class = (verdict or {}).get(FAILURE_CLASS) if isinstance(verdict, dict) else None
            raise VerificationFailed(failure_class or f.VERIFY_ERROR,
                                     f"{resources_server} answered {reply.status_code}: {detail or reply.text[:200]}",
                                     reply.status_code, verdict)
        reward = verdict.get("reward")
        if FAILURE_CLASS in verdict or not isinstance(reward, (int, float)) or isinstance(reward, bool):
            raise VerificationFailed(str(verdict.get(FAILURE_CLASS, f.VERIFY_ERROR)),
                                     f"{resources_server} gave no numeric reward", reply.status_code, verdict)
        return verdict

    def verify_many(self, resources_server: str, rows: Sequence[dict], responses: Sequence[Union[str, dict]], *,
                    parallel: int = 16, timeout: Optional[float] = None) -> List[Union[dict, VerificationFailed]]:
        """`verify` for each (row, response) pair, `parallel` at a time, in order; a failure stays a failure."""
        if len(rows) != len(responses):
            raise ValueError(f"{len(rows)} rows but {len(responses)} responses")
        if parallel < 1:
            raise ValueError(f"parallel must be at least 1, got {parallel}")
        self._url(resources_server, RESOURCES)  # a wrong name fails once, before any call

        limits = httpx.Limits(max_connections=parallel)
        with httpx.Client(limits=limits, follow_redirects=False, cookies=no_cookies()) as http, \
                ThreadPoolExecutor(parallel) as pool:
            def one(pair):
                try:
                    return self.verify(resources_server, pair[0], pair[1], timeout=timeout, http=http)
                except VerificationFailed as e:
                    return e

            return list(pool.map(one, zip(rows, responses)))
