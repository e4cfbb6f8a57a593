"""When a dependency fails: DynamoDB, S3, SQS or Secrets Manager throttling, unreachable, too slow
or refusing. Every service answers the same way: 503 with `Retry-After`, and a message that names
the service and what went wrong, never an endpoint (botocore's connection errors carry the internal
endpoint's URL; the log keeps the whole error for operators).

The time budget: the clients of API functions (`API_CALLS`) give up after three attempts of at
most 1 s to connect or 2 s to read the answer, so a frozen dependency costs a request at most 9 s
(three reads and the standard mode's two backoffs of up to 1 and 2 s), inside an API function's 10 s
timeout: the caller hears 503 rather than a timeout's 502. DynamoDB answers in milliseconds (the
local engine's slowest answer on a loaded test machine was 0.26 s), so 2 s raises no false alarm.
Whatever the invocation spent before (a cold environment importing boto3), no attempt starts that
could end past its deadline (`common.clients.within_deadline`): that is a 503 too, in time.

Repositories translate SDK errors at their boundary (`common.repository`) into their service's
`DependencyError` subclass; `answer_dependency_failures` answers those, and any SDK error that
reached a route untranslated (the Z-index engine in the layer raises botocore's own), alike. A
write's 503 (POST, PUT, PATCH, DELETE) also says whether it may have applied and whether sending it
again is safe (`effect`, from the request's account in `common.writes`).
"""

from __future__ import annotations

from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from botocore.exceptions import (
    BotoCoreError,
    ClientError,
    ConnectionError,
    ConnectTimeoutError,
    HTTPClientError,
    ReadTimeoutError,
)

from tatami_functions.common import writes
from tatami_functions.common.clients import API_CALLS, ClientConfig, no_time_left_error
from tatami_functions.common.observability import logger

if TYPE_CHECKING:  # only API functions answer; a stream consumer's cold start skips Powertools' resolvers
    from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response
    from aws_lambda_powertools.utilities.data_classes.common import BaseProxyEvent

__all__ = [
    "DependencyError",
    "answer_dependency_failures",
    "effect",
    "failure",
    "lost_answer",
    "worst_case_seconds",
]

THROTTLED_RETRY_AFTER = 1  # seconds; throttling passes as the table scales or the burst drains
UNAVAILABLE_RETRY_AFTER = 5  # an endpoint down or frozen takes longer to come back
NAMES = {"dynamodb": "DynamoDB", "s3": "S3", "sqs": "SQS", "secretsmanager": "Secrets Manager"}
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
NOT_APPLIED = "nothing was applied: sending the same request again is safe"
SAME_KEY = "it may have applied: sending it again with the same Idempotency-Key is safe (it applies once)"
SAME_REQUEST = (
    "it may have applied: sending the same request again is safe (it does not apply twice; "
    "a 404 or 409 then means this one had applied)"
)
_THROTTLING = frozenset(
    {
        "ProvisionedThroughputExceededException",
        "RequestLimitExceeded",
        "ThrottlingException",
        "Throttling",
        "TooManyRequestsException",
        "SlowDown",  # S3
        "RequestThrottled",  # SQS
    }
)


class DependencyError(Exception):
    """A dependency failed; the API answers 503 with `Retry-After: retry_after`. Each service's
    "...UnavailableError" derives from it."""

    def __init__(self, message: str, retry_after: int = UNAVAILABLE_RETRY_AFTER) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def failure[ErrorT: Exception](
    error: type[ErrorT], what: str, exc: BaseException, service: str = ""
) -> ErrorT:
    """`error("<what>: <service> <reason>; retry after N s")` for the SDK error `exc`; `service` is
    the AWS service's client name ("dynamodb"), empty when unknown.

    >>> str(failure(DependencyError, "cannot get item on places", ReadTimeoutError(endpoint_url="x"),
    ...             "dynamodb"))
    'cannot get item on places: DynamoDB did not answer in time; retry after 5 s'
    """
    reason, retry_after = _reason(exc)
    who = NAMES.get(service, service) or "a dependency"
    made = error(f"{what}: {who} {reason}; retry after {retry_after} s")
    if isinstance(made, DependencyError):
        made.retry_after = retry_after
    return made


def lost_answer[ErrorT: Exception](error: type[ErrorT], what: str, service: str = "") -> ErrorT:
    """`error(...)` for a write whose condition failed after an earlier attempt of the same call lost
    its answer: that attempt may have applied, and made the condition fail (not a 404 or 409).

    >>> str(lost_answer(DependencyError, "cannot delete", "dynamodb"))
    'cannot delete: DynamoDB lost the answer to an attempt that may have applied; retry after 5 s'
    """
    who = NAMES.get(service, service) or "a dependency"
    lost = "lost the answer to an attempt that may have applied"
    return error(f"{what}: {who} {lost}; retry after {UNAVAILABLE_RETRY_AFTER} s")


def _reason(exc: BaseException) -> tuple[str, int]:
    """What went wrong, in words that hold no endpoint, and how long to wait before retrying."""
    if isinstance(exc, ClientError):
        code = str(exc.response.get("Error", {}).get("Code", "an unknown error"))
        if code in _THROTTLING:
            return "is throttling requests", THROTTLED_RETRY_AFTER
        status = int(exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0) or 0)
        return f"{'failed' if status >= 500 else 'refused the request'} ({code})", UNAVAILABLE_RETRY_AFTER
    if isinstance(exc, ReadTimeoutError | ConnectTimeoutError | no_time_left_error()):
        return "did not answer in time", UNAVAILABLE_RETRY_AFTER
    if isinstance(exc, ConnectionError | HTTPClientError):
        return "cannot be reached", UNAVAILABLE_RETRY_AFTER
    return f"failed ({type(exc).__name__})", UNAVAILABLE_RETRY_AFTER


def worst_case_seconds(config: ClientConfig = API_CALLS) -> float:
    """How long a call may take before its client gives up: each attempt either fails to connect or
    waits for its answer (a connection that succeeds takes milliseconds), and the standard mode
    backs off at most 2 ** i seconds before retry i + 1.

    >>> worst_case_seconds()
    9.0
    """
    options = config.options
    attempts = int(options["retries"]["total_max_attempts"])
    per_attempt = max(float(options["connect_timeout"]), float(options["read_timeout"]))
    return attempts * per_attempt + sum(2.0**i for i in range(attempts - 1))


def answer_dependency_failures(app: APIGatewayRestResolver, service: str | None = None) -> None:
    """Answer every DependencyError, and any SDK error no repository translated, with 503 and
    `Retry-After`; `service` names the service (default: the function's service, as its Logger has it)."""
    name = service or (logger.service if logger.service != "service_undefined" else "the service")

    @app.exception_handler(DependencyError)
    def _translated(exc: DependencyError) -> Response[Any]:
        return _unavailable(exc, app.current_event)

    @app.exception_handler([ClientError, BotoCoreError])
    def _untranslated(exc: Exception) -> Response[Any]:
        translated = failure(DependencyError, f"{name} unavailable", exc)
        translated.__cause__ = exc
        return _unavailable(translated, app.current_event)


def _unavailable(exc: DependencyError, event: BaseProxyEvent) -> Response[Any]:
    from aws_lambda_powertools.event_handler import Response, content_types  # an API function's: loaded

    cause = exc.__cause__ or exc
    body: dict[str, Any] = {"message": str(exc)}
    if event.http_method.upper() in WRITE_METHODS:
        body |= effect(has_key=event.headers.get("idempotency-key") is not None)
    logger.warning("dependency failed", extra={"answer": body, "error": repr(cause)}, exc_info=cause)
    return Response(
        status_code=HTTPStatus.SERVICE_UNAVAILABLE,
        content_type=content_types.APPLICATION_JSON,
        body=body,
        headers={"Retry-After": str(exc.retry_after)},
    )


def effect(has_key: bool) -> dict[str, Any]:
    """What a write request's 503 says about its effect: whether it may have applied (a write of the
    request applied, or lost its answer: `common.writes`) and whether sending it again is safe.

    >>> writes.begin_request(); effect(has_key=False)
    {'may_have_applied': False, 'retry': 'nothing was applied: sending the same request again is safe'}
    """
    if not writes.may_have_applied():
        return {"may_have_applied": False, "retry": NOT_APPLIED}
    advice = writes.resend_warning() or (SAME_KEY if has_key else SAME_REQUEST)
    return {"may_have_applied": True, "retry": advice}
