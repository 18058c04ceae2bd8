"""Typed failures. A rollout or a verification that could not be scored is one of these, never a reward."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

# failure classes, as the gym4j agents and NeMo Gym's failure sidecar name them, plus the client's own
TIMEOUT = "timeout"  # an attempt ran past its time limit
AGENT_UNREACHABLE = "agent_unreachable"  # the agent (or the head server) could not be reached for the outage wait
AGENT_ERROR = "agent_error"  # the agent answered with something that is not a result
VERIFY_ERROR = "verify_error"  # the verifier refused the rollout or gave no numeric reward
RESOURCES_UNREACHABLE = "resources_unreachable"  # the resources server could not be reached (verify)
DEADLINE_EXCEEDED = "deadline_exceeded"  # the rollout's overall deadline passed between attempts


class Gym4jError(Exception):
    """Base of every error this package raises."""


class DiscoveryError(Gym4jError):
    """The head server could not be asked, or it does not run the server a call needs."""


@dataclass(frozen=True)
class RolloutFailure:
    """A rollout that could not finish: what the iterator of `Gym4j.run_examples` yields instead of a result.

    It deliberately has no `reward`: a trainer that indexes it like a result (``item["reward"]``) fails loudly
    instead of learning from an invented score.
    """

    task_index: int
    rollout_index: int
    failure_class: str
    message: str
    attempts: int
    row: dict = field(repr=False)
    response: Optional[dict] = field(default=None, repr=False)

    @property
    def agent_name(self) -> str:
        return (self.row.get("agent_ref") or {}).get("name", "")

    def as_row(self) -> dict:
        """The failure as a row of gym4j's `<output>_failures.jsonl` (NeMo Gym's sidecar fields)."""
        row = dict(self.row)
        row["_ng_failure_class"] = self.failure_class
        row["_ng_failure_message"] = self.message
        if self.response is not None:
            row.setdefault("response", self.response)
        return row


class VerificationFailed(Gym4jError):
    """`verify` could not produce a reward: the verifier refused the rollout, failed, or could not be reached."""

    def __init__(self, failure_class: str, message: str, status: Optional[int] = None, body: Any = None):
        super().__init__(f"{failure_class}: {message}")
        self.failure_class = failure_class
        self.message = message
        self.status = status
        self.body = body
