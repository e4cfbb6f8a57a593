"""Injected faults, for the tests that prove nothing is lost or doubled: throttling, transient server
errors, lost responses and a process killed in the middle of its work.

Faults enter through botocore's event system, so the code under test is the code that ships: a
`before-send` handler answers a chosen share of calls with the error response the service would send
(HTTP 400 `ProvisionedThroughputExceededException` or `ThrottlingException`, HTTP 500
`InternalServerError`), or raises the connection error of an endpoint that cannot be reached
(`EndpointConnectionError`), or loses the response (`LostResponse`: the call is sent, reaches the
service and applies, and its answer is dropped: the caller sees a read timeout, as when a response is
lost in AWS), which the SDK's own retry logic then sees exactly as it would see AWS's. A plan picks
its calls by operation ("dynamodb.UpdateItem"), by the resources they name (a table, bucket or queue
name, or part of one) and by attempt (1: the first send of a call, before any retry), so `rate=1.0`
with `attempts=(1,)` loses the first answer of every matching call, whatever the concurrency;
an `after-call` handler can SIGKILL the process after its Nth successful call (a crash with some
effects made and others not). A `Crash` kills it at one chosen step instead: before or after a call
of one operation whose request mentions a marker (a counter's name, say), once across every process
of the function (the plan's `ledger` folder remembers which crashes fired), so a test can crash each
step of a request and then watch the retry. A plan with a `switch` file is armed while the file
exists: the plan written in it is the one in force, so a test can fail a running cloud's calls and
stop failing them. `install(plan)` hooks every client the process creates from then on (Powertools
and boto3's default session included); a local cloud passes a plan to a function's workers in the
TATAMI_FAULTS variable (`LocalCloudConfig.faults`).

For example (not run as a doctest)::

    install(FaultPlan(rate=0.3, operations=("dynamodb.UpdateItem",), seed=7))
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import random
import re
import signal
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from botocore.awsrequest import AWSResponse

FAULTS_ENV = "TATAMI_FAULTS"
THROTTLING = ("ProvisionedThroughputExceededException", "ThrottlingException")
UNREACHABLE = "EndpointConnectionError"  # not an answer: the connection itself fails
LOST_RESPONSE = "LostResponse"  # sent and applied, then a read timeout instead of the answer
# What `tatami local faults KIND` injects.
KINDS = {
    "lose-responses": (LOST_RESPONSE,),
    "throttle": THROTTLING,
    "unreachable": (UNREACHABLE,),
    "server-errors": ("InternalServerError",),
}
_ATTEMPT = re.compile(r"attempt=(\d+)")  # botocore's amz-sdk-request header: "attempt=2; max=3"
_STATUS = {"InternalServerError": 500, "ServiceUnavailable": 503}


@dataclass(frozen=True)
class Crash:
    """SIGKILL `when` ("before" or "after") a call of `operation` ("dynamodb.TransactWriteItems")
    whose request body contains `marker`."""

    when: str
    operation: str
    marker: str = ""

    def __post_init__(self) -> None:
        if self.when not in ("before", "after"):
            raise ValueError(f"when {self.when!r} must be 'before' or 'after'")


@dataclass(frozen=True)
class FaultPlan:
    """Which calls fail and how; `operations` like "dynamodb.BatchWriteItem", or a whole service like
    "dynamodb" (empty: every call)."""

    rate: float = 0.0  # share of matching calls answered with one of `errors`
    errors: tuple[str, ...] = (*THROTTLING, "InternalServerError")
    operations: tuple[str, ...] = ()
    crash_after: int | None = None  # SIGKILL this process after this many matching calls succeeded
    seed: int = 0
    crashes: tuple[Crash, ...] = ()  # each fires once while `ledger` (a folder) remembers it
    ledger: str | None = None
    switch: str | None = None  # a file: while it exists, the plan written in it (JSON) is in force
    resources: tuple[str, ...] = ()  # only calls whose URL or body names one of these (empty: any)
    attempts: tuple[int, ...] = ()  # only these attempts of a call, 1 the first (empty: every one)

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> FaultPlan:
        fields: dict[str, Any] = json.loads(text)
        for name in ("errors", "operations", "resources", "attempts"):
            if name in fields:
                fields[name] = tuple(fields[name])
        fields["crashes"] = tuple(Crash(**crash) for crash in fields.get("crashes", ()))
        return cls(**fields)


class FaultInjector:
    """Counts what it injected; thread-safe (clients are shared by threads)."""

    def __init__(self, plan: FaultPlan) -> None:
        self.plan = plan
        self.injected: dict[str, int] = {}
        self.succeeded = 0
        self._rng = random.Random(plan.seed)
        self._lock = threading.Lock()
        self._switched: tuple[str, FaultPlan] = ("", plan)
        self._session: Any = None  # botocore's URLLib3Session, for the calls whose answers are lost

    def attach(self, events: Any) -> None:
        events.register("before-send", self._before_send)
        events.register("after-call", self._after_call)
        if self.plan.crashes:
            events.register("before-call", self._before_step)
            events.register("after-call", self._after_step)

    def _before_step(
        self, event_name: str, params: dict[str, Any], context: dict[str, Any], **_: Any
    ) -> None:
        operation = event_name.split(".", 1)[1]  # before-call.dynamodb.GetItem -> dynamodb.GetItem
        body = params.get("body", b"")
        body = body.decode(errors="replace") if isinstance(body, bytes) else str(body)
        due = [i for i, c in enumerate(self.plan.crashes) if c.operation == operation and c.marker in body]
        for index in due:
            if self.plan.crashes[index].when == "before" and self._claim(index):
                _kill(f"before {operation} ({self.plan.crashes[index].marker})")
        context["tatami_crashes_after"] = [i for i in due if self.plan.crashes[i].when == "after"]

    def _after_step(self, event_name: str, context: dict[str, Any], **_: Any) -> None:
        for index in context.get("tatami_crashes_after", []):
            if self._claim(index):
                _kill(f"after {event_name.split('.', 1)[1]} ({self.plan.crashes[index].marker})")

    def _claim(self, index: int) -> bool:
        """True once per crash across processes (the ledger's file for it is created exactly once)."""
        if self.plan.ledger is None:
            return True
        try:
            os.close(os.open(os.path.join(self.plan.ledger, f"crash-{index}"), os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return False
        return True

    def in_force(self) -> FaultPlan:
        """The plan, or while its switch file exists, the plan written in that file."""
        if self.plan.switch is None:
            return self.plan
        try:
            text = Path(self.plan.switch).read_text()
        except FileNotFoundError:
            return self.plan
        if text != self._switched[0]:
            self._switched = (text, FaultPlan.from_json(text))
        return self._switched[1]

    def _matches(self, plan: FaultPlan, event_name: str) -> bool:
        # before-send.dynamodb.UpdateItem / after-call.dynamodb.UpdateItem
        _, service, operation = event_name.split(".", 2)
        wanted = plan.operations
        return not wanted or service in wanted or f"{service}.{operation}" in wanted

    def _picks(self, plan: FaultPlan, request: Any) -> bool:
        """Whether the request names one of the plan's resources and is one of its attempts."""
        if plan.attempts and _attempt(request) not in plan.attempts:
            return False
        if not plan.resources:
            return True
        body = request.body if isinstance(request.body, bytes | str) else b""
        text = f"{request.url} {body.decode(errors='replace') if isinstance(body, bytes) else body}"
        return any(resource in text for resource in plan.resources)

    def _before_send(self, request: Any, event_name: str, **_: Any) -> AWSResponse | None:
        plan = self.in_force()
        if not self._matches(plan, event_name) or not self._picks(plan, request):
            return None
        with self._lock:
            if self._rng.random() >= plan.rate:
                return None
            error = self._rng.choice(plan.errors)
            self.injected[error] = self.injected.get(error, 0) + 1
        # One line per fault, so a test (and a reader of the local cloud's log) sees what was injected.
        sys.stderr.write(f"tatami faults: injected {error} into {event_name.split('.', 1)[1]}\n")
        if error == UNREACHABLE:
            from botocore.exceptions import EndpointConnectionError

            raise EndpointConnectionError(endpoint_url=request.url)
        if error == LOST_RESPONSE:
            self._deliver_and_lose(request)
        return _error_response(request.url, error)

    def _deliver_and_lose(self, request: Any) -> None:
        """Send the request (the service applies it), read its answer, and raise the read timeout the
        caller would see had the answer been lost on the way back."""
        from botocore.exceptions import ReadTimeoutError
        from botocore.httpsession import URLLib3Session

        with self._lock:
            if self._session is None:
                self._session = URLLib3Session(timeout=60)
            session = self._session
        answer = session.send(request)
        _ = answer.content  # read to its end: the service has answered, the caller never hears it
        raise ReadTimeoutError(endpoint_url=request.url)

    def _after_call(self, event_name: str, http_response: Any, **_: Any) -> None:
        if self.plan.crash_after is None or not self._matches(self.plan, event_name):
            return
        if http_response is not None and http_response.status_code < 300:
            with self._lock:
                self.succeeded += 1
                crash = self.succeeded >= self.plan.crash_after
            if crash:
                _kill(f"after {self.succeeded} calls")


def _kill(when: str) -> None:
    sys.stderr.write(f"tatami faults: killed {when}\n")  # the line a test (and a reader) looks for
    sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def _attempt(request: Any) -> int:
    """Which attempt of its call a request is (botocore numbers them in the amz-sdk-request header)."""
    header = request.headers.get("amz-sdk-request") or ""
    match = _ATTEMPT.search(header.decode() if isinstance(header, bytes) else str(header))
    return int(match.group(1)) if match else 1


def install(plan: FaultPlan) -> FaultInjector:
    """Inject `plan` into every botocore client this process creates from now on."""
    # botocore is imported here, not at the top: a sandboxed worker installs faults after its import
    # path became the function's, so the botocore patched is the one its handler will use.
    import botocore.session

    injector = FaultInjector(plan)
    create_client = botocore.session.Session.create_client

    def create_faulty_client(self: botocore.session.Session, *args: Any, **kwargs: Any) -> Any:
        client = create_client(self, *args, **kwargs)
        injector.attach(client.meta.events)
        return client

    botocore.session.Session.create_client = create_faulty_client
    return injector


def install_from_environment() -> FaultInjector | None:
    """What a local worker calls at start: the plan in TATAMI_FAULTS, if any (the variable is removed,
    as the handler would not see it in Lambda)."""
    text = os.environ.pop(FAULTS_ENV, "")
    return install(FaultPlan.from_json(text)) if text else None


class _Body(io.BytesIO):
    def stream(self, **_: Any) -> Iterator[bytes]:
        yield self.getvalue()


def _error_response(url: str, error: str) -> AWSResponse:
    from botocore.awsrequest import AWSResponse

    """The JSON-protocol error response DynamoDB (and the other JSON services) send for `error`."""
    body = json.dumps({"__type": f"com.amazonaws.dynamodb.v20120810#{error}", "message": "injected fault"})
    headers = {"x-amzn-RequestId": "injected", "Content-Type": "application/x-amz-json-1.0"}
    return AWSResponse(url, _STATUS.get(error, 400), headers, _Body(body.encode()))
