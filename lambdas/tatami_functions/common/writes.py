"""What a write did when its answer was lost: the SDK's retries of writes, and what a request's 503 says.

A response can be lost after DynamoDB (or S3, SQS) applied the write: a read timeout, a connection
closed before the answer, a 5xx. The SDK's standard retry sends the call again, which is harmless
for a write whose effect is the same however often it lands (a Put, a Delete, a SET of given values,
a transaction with its `ClientRequestToken`) and wrong for one that is not (an `ADD`, `x = x + :n`,
`list_append`, a transaction without a token, an SQS message): the counter moves twice for one 200.

`guard(events)` (on every client `common.clients` makes) sees each attempt's outcome through
botocore's `needs-retry` event and sorts it: *applied* (2xx), *refused* (a 4xx: DynamoDB throttled or
rejected it; a connection that never opened: nothing was sent) or *unknown* (any other failure: it
may have applied). An unknown attempt of a write that is not safe to resend ends the call there,
with that attempt's error, so no retry applies it twice; throttling and connection failures are
still retried, as they provably did not apply.

Each request keeps an account of its writes (`begin_request`, which the resolver calls; threads of
one request share it): once a write applied, or a write's answer was lost, the request may have
changed something, and its 503 says so (`may_have_applied`, `common.dependencies`). The calling
thread also sees its last call's attempts (`begin_call`, `answer_lost`), so a repository can tell a
condition failed by its own earlier, lost attempt from a real 404/409 (`common.repository`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from typing import Any

__all__ = [
    "APPLIED",
    "REFUSED",
    "UNKNOWN",
    "answer_lost",
    "attempt_outcome",
    "begin_call",
    "begin_request",
    "guard",
    "is_write",
    "may_have_applied",
    "resend_safe",
    "resend_warning",
    "resending_is_unsafe",
]

APPLIED, REFUSED, UNKNOWN = "applied", "refused", "unknown"
_WRITES = ("Put", "Update", "Delete", "BatchWrite", "TransactWrite", "Send", "Copy", "CompleteMultipart")
# An update whose effect depends on what is stored: ADD, arithmetic in SET, list_append. ADD is a
# reserved word, so it cannot be an attribute name written as is; placeholders hold no + or -.
_RELATIVE = re.compile(r"\bADD\b|[+-]|list_append", re.IGNORECASE)
_RESEND_SAFE = "tatami_resend_safe"  # in botocore's request context, set when a write call starts


def is_write(operation: str) -> bool:
    """Whether an operation (botocore's name) changes what a service stores.

    >>> is_write("UpdateItem"), is_write("BatchGetItem"), is_write("PutObject")
    (True, False, True)
    """
    return operation.startswith(_WRITES)


def resend_safe(operation: str, params: Mapping[str, Any]) -> bool:
    """Whether a write may be sent again after an attempt whose answer was lost: its effect is the
    same however often it lands (a condition does not make it so: `attribute_exists` stays true).

    >>> resend_safe("UpdateItem", {"UpdateExpression": "ADD #c :by"})
    False
    >>> resend_safe("UpdateItem", {"UpdateExpression": "SET #s = :s"})
    True
    >>> resend_safe("TransactWriteItems", {"ClientRequestToken": "t"})
    True
    """
    if operation == "UpdateItem":
        return not _RELATIVE.search(str(params.get("UpdateExpression", "")))
    if operation == "TransactWriteItems":  # DynamoDB applies a token's transaction once (10 minutes)
        return bool(params.get("ClientRequestToken"))
    return not operation.startswith("Send")  # SQS: a standard queue delivers every copy


def attempt_outcome(response: Any, exception: BaseException | None) -> str:
    """APPLIED, REFUSED or UNKNOWN for one attempt (botocore's `(http_response, parsed)` or error).

    >>> from botocore.exceptions import EndpointConnectionError, ReadTimeoutError
    >>> attempt_outcome(None, EndpointConnectionError(endpoint_url="x"))
    'refused'
    >>> attempt_outcome(None, ReadTimeoutError(endpoint_url="x"))
    'unknown'
    """
    from botocore.exceptions import ConnectTimeoutError, EndpointConnectionError

    if exception is not None:  # only a connection that never opened sent nothing
        return REFUSED if isinstance(exception, ConnectTimeoutError | EndpointConnectionError) else UNKNOWN
    status = response[0].status_code
    if status < 300:
        return APPLIED
    return UNKNOWN if status >= 500 else REFUSED


class _Account:
    """What the current request's writes may have done; shared by its threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._changed = False
        self.unsafe_resend: str | None = None  # why sending the request again could apply it twice

    def reset(self) -> None:
        with self._lock:
            self._changed = False
            self.unsafe_resend = None

    def note(self, outcome: str) -> None:
        if outcome != REFUSED:
            with self._lock:
                self._changed = True

    @property
    def changed(self) -> bool:
        return self._changed


_request = _Account()
_call = threading.local()


def begin_request() -> None:
    """A new request starts: none of its writes has been attempted yet (a function serves one
    request at a time, so one account per execution environment)."""
    _request.reset()


def may_have_applied() -> bool:
    """Whether a write of the current request applied, or may have (its answer lost)."""
    return _request.changed


def resending_is_unsafe(reason: str) -> None:
    """Say, for the current request's 503, why sending it again could apply it twice (an increment
    without an Idempotency-Key: "sending it again may count it twice; ...")."""
    _request.unsafe_resend = reason


def resend_warning() -> str | None:
    """The reason `resending_is_unsafe` gave during the current request, if any."""
    return _request.unsafe_resend


def begin_call() -> None:
    """A call starts on this thread: `answer_lost` speaks of it from now on."""
    _call.outcomes = []


def answer_lost() -> bool:
    """Whether an attempt of this thread's last call ended with its answer lost (it may have applied)."""
    return UNKNOWN in getattr(_call, "outcomes", ())


def guard(events: Any, service: str) -> None:
    """Account for every attempt of a client's calls, and end a call whose write is not safe to
    resend at its first attempt that may have applied (`events`: the client's `meta.events`;
    `service`: its hyphenized service id, "dynamodb")."""
    events.register_first(f"before-parameter-build.{service}", _call_starts)
    events.register_first(f"needs-retry.{service}", _attempt_ended)


def _call_starts(params: Mapping[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
    begin_call()
    if is_write(model.name):
        context[_RESEND_SAFE] = resend_safe(model.name, params)


def _attempt_ended(
    response: Any, caught_exception: BaseException | None, operation: Any, request_dict: Any, **_: Any
) -> None:
    outcome = attempt_outcome(response, caught_exception)
    outcomes = getattr(_call, "outcomes", None)
    if outcomes is not None:
        outcomes.append(outcome)
    if not is_write(operation.name):
        return
    _request.note(outcome)
    if outcome == UNKNOWN and request_dict["context"].get(_RESEND_SAFE) is False:
        # Raising here ends the call with this attempt's error, before the retry handler sleeps.
        if caught_exception is not None:
            raise caught_exception
        from botocore.exceptions import ClientError

        raise ClientError(response[1], operation.name)
