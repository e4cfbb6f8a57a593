"""The AWS SDK's retry rules on the simulated clock: botocore's own classes, not a copy of them.

A throttled call is retried as the AWS SDK for Python retries it, in the retry mode a client uses
(https://boto3.amazonaws.com/v1/documentation/api/latest/guide/retries.html), with the parameters
of the botocore release `make install` pins (read from it, never restated here):

- legacy (botocore's default until it became standard): DynamoDB's entry of botocore's
  `_retry.json`: 10 attempts, sleeping 0.05 x 2^(attempt-1) s, no jitter, no retry quota;
- standard (the default now): `botocore.retries.standard`: 4 attempts for DynamoDB, sleeping
  rand(0, 1) x min(1 x 2^(attempt-1), 20) s after a throttling error, and a retry quota shared
  by the client's threads (500 tokens, 5 per throttled retry, 1 back per call that needed none)
  that stops retrying when it runs dry;
- adaptive: standard, plus `botocore.retries.adaptive`'s client-side rate limiter: after a
  throttling error every call first takes a token from a bucket whose rate follows CUBIC
  (`throttling.CubicCalculator`: x0.7 on a throttle, then growing back), measured by
  `RateClocker`.

botocore's classes read the time from a clock object; here it is the simulation's. Nothing sleeps:
each rule says how long, and the client (`clients`) schedules the next call that much later.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

import botocore.session
from botocore import loaders, retryhandler, translate
from botocore.retries import quota, standard

from tatami.capacity.workloads.rate_limiter import RateLimiter, SimClock

__all__ = [
    "ADAPTIVE",
    "LEGACY",
    "MODES",
    "OK_RESPONSE",
    "STANDARD",
    "TRANSACTION_CANCELED",
    "ClientConfig",
    "SdkClient",
]

LEGACY, STANDARD, ADAPTIVE = "legacy", "standard", "adaptive"
MODES = (LEGACY, STANDARD, ADAPTIVE)
THROTTLED = {"Error": {"Code": "ProvisionedThroughputExceededException"}}
TRANSACTION_CANCELED = "TransactionCanceledException"  # what a throttled transaction is answered with
SERVICE = "dynamodb"


@dataclass(frozen=True, slots=True)
class ClientConfig:
    """How the application calls DynamoDB: its SDK retry mode, its attempts, its round trip.

    `max_attempts`: every attempt, the first included (botocore's `total_max_attempts`); None is
    the SDK's default for DynamoDB. `latency`: seconds from sending a call to its answer (AWS:
    "single-digit millisecond" in the Region; more from outside it).

    >>> ClientConfig().describe()
    'standard retries (4 attempts), 5 ms a call'
    """

    mode: str = STANDARD
    max_attempts: int | None = None
    latency: float = 0.005

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"retry mode {self.mode!r} must be one of {', '.join(MODES)}")
        if self.max_attempts is not None and self.max_attempts < 1:
            raise ValueError(f"max attempts {self.max_attempts} must be at least 1")
        if not 0 < self.latency <= 60:
            raise ValueError(f"latency {self.latency} s must be positive and at most a minute")

    @property
    def attempts(self) -> int:
        if self.max_attempts is not None:
            return self.max_attempts
        if self.mode == LEGACY:
            return int(_legacy_config(None)["__default__"]["max_attempts"])
        return int(getattr(standard, "_SERVICE_MAX_ATTEMPTS", {}).get(SERVICE, standard.DEFAULT_MAX_ATTEMPTS))

    def describe(self) -> str:
        return f"{self.mode} retries ({self.attempts} attempts), {self.latency * 1000:g} ms a call"


class _Response:
    """The part of an HTTP response botocore's retry rules read."""

    def __init__(self, status_code: int) -> None:
        self.status_code = status_code
        self.headers: dict[str, str] = {}


THROTTLED_RESPONSE, OK_RESPONSE = _Response(400), _Response(200)


class SdkClient:
    """One SDK client: shared by a loader's threads, so they share its retry quota and rate limiter."""

    def __init__(self, config: ClientConfig | None = None, seed: int = 0) -> None:
        self.config = config or ClientConfig()
        self.attempts = self.config.attempts
        self.clock, rng = SimClock(), random.Random(f"sdk:{seed}")
        detector = standard.ThrottlingErrorDetector(standard.RetryEventAdapter())
        self._legacy = None
        if self.config.mode == LEGACY:
            retries = {"max_attempts": self.attempts - 1}  # botocore's client turns total into retries
            self._legacy = retryhandler.create_retry_handler(_legacy_config(retries), SERVICE)
        self._conditions = standard.StandardRetryConditions(max_attempts=self.attempts)
        self._backoff = standard.ExponentialBackoff(
            random=rng.random, service_name=SERVICE, throttling_detector=detector
        )
        self._quota = standard.RetryQuotaChecker(quota.RetryQuota(), detector)
        self._limiter = RateLimiter(self.clock) if self.config.mode == ADAPTIVE else None
        self._rng = rng
        # The longest sleep after each attempt (botocore's rule with its random factor at 1): a caller
        # with a client of its own sleeps rand(0, 1) x that (standard) or exactly that (legacy).
        ceiling = standard.ExponentialBackoff(
            random=lambda: 1.0, service_name=SERVICE, throttling_detector=detector
        )
        self._ceilings: list[float] = [
            self._legacy_delay(attempt) or 0.0
            if self._legacy is not None
            else float(ceiling.delay_amount(_throttled(attempt, {})))
            for attempt in range(1, self.attempts)
        ]

    @property
    def latency(self) -> float:
        return self.config.latency

    @property
    def ceilings(self) -> list[float]:
        """The longest sleep after each attempt but the last (botocore's rule, its random factor at 1)."""
        return self._ceilings

    def jitter(self) -> float:
        """botocore's random factor of a sleep: rand(0, 1) in standard and adaptive, 1 in legacy."""
        return 1.0 if self._legacy is not None else self._rng.random()

    def retries(self, code: str, operation: str = "TransactWriteItems") -> bool:
        """Whether this client's retry mode retries `operation` answered with error `code` (botocore decides).

        A throttled transaction is answered with TransactionCanceledException (its reasons say
        ThrottlingError: API_TransactWriteItems.html), which no retry mode retries.

        >>> client = SdkClient()
        >>> client.retries("ProvisionedThroughputExceededException"), client.retries(TRANSACTION_CANCELED)
        (True, False)
        """
        error = {"Error": {"Code": code}}
        if self._legacy is not None:
            delay = self._legacy(1, (THROTTLED_RESPONSE, error), None, request_dict={"context": {}})
            return delay is not None
        context = standard.RetryContext(
            1, parsed_response=error, http_response=THROTTLED_RESPONSE, operation_model=_operation(operation)
        )
        return bool(self._conditions.is_retryable(context))

    def send_at(self, now: float) -> float:
        """When a call may go out: now, or (adaptive, after a throttle) once a token is there."""
        return self._limiter.send_at(now) if self._limiter else now

    def retry_delay(self, attempt: int, context: dict[str, Any], now: float) -> float | None:
        """After attempt `attempt` (1-based) was throttled at `now`: the SDK's sleep, or None if it gives up.

        `context` is the call's own (the retry quota remembers there what it lent).
        """
        if self._limiter:
            self._limiter.response(now, throttled=True)
        if self._legacy is not None:
            return self._legacy_delay(attempt, context)
        retry = _throttled(attempt, context)
        if not self._conditions.is_retryable(retry) or not self._quota.acquire_retry_quota(retry):
            return None
        return float(self._backoff.delay_amount(retry))

    def _legacy_delay(self, attempt: int, context: dict[str, Any] | None = None) -> float | None:
        assert self._legacy is not None
        response = (THROTTLED_RESPONSE, THROTTLED)
        delay = self._legacy(attempt, response, None, request_dict={"context": context or {}})
        return None if delay is None else float(delay)

    def succeeded(self, context: dict[str, Any], now: float) -> None:
        """A call answered without a throttling error: the quota gets back what it lent (or one)."""
        if self._limiter:
            self._limiter.response(now, throttled=False)
        if self._legacy is None:
            self._quota.release_retry_quota(context, OK_RESPONSE)


def _throttled(attempt: int, context: dict[str, Any]) -> standard.RetryContext:
    """botocore's view of a call answered with a throttling error."""
    return standard.RetryContext(
        attempt, parsed_response=THROTTLED, http_response=THROTTLED_RESPONSE, request_context=context
    )


def _legacy_config(retries: dict[str, int] | None) -> dict[str, Any]:
    """botocore's legacy retry configuration for DynamoDB (its `_retry.json`, as a client builds it)."""
    data = _retry_data()
    config: dict[str, Any] = translate.build_retry_config(
        SERVICE, data["retry"], data["definitions"], retries
    )
    return config


@functools.cache
def _operation(name: str) -> Any:
    """botocore's model of a DynamoDB operation (its modeled errors decide what standard mode retries)."""
    return botocore.session.get_session().get_service_model(SERVICE).operation_model(name)


@functools.cache
def _retry_data() -> dict[str, Any]:
    data: dict[str, Any] = loaders.create_loader().load_data("_retry")
    return data
