"""Errors of the counters service; each answers with its status (`common.errors`), but a key being
committed, whose 409 carries Retry-After (api.py)."""

from __future__ import annotations

from http import HTTPStatus

from tatami_functions.common.dependencies import DependencyError
from tatami_functions.common.errors import ConflictError, ItemNotFoundError, TatamiError


class CounterError(Exception):
    """Base of every counters error."""


class CounterNotFoundError(CounterError, ItemNotFoundError):
    """No counter of that name: create it with `PUT /counters/{name}` (404)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"counter {name!r} does not exist; create it with PUT /counters/{name}")
        self.name = name


class ShardShrinkError(CounterError, ConflictError):
    """A PUT asked for fewer shards than the counter has; shards never go away (409)."""

    def __init__(self, name: str, current: int, requested: int) -> None:
        super().__init__(
            f"target_wcu: counter {name!r} has {current} shards and target_wcu needs {requested}: shard "
            "counts only grow (every shard keeps part of the count)"
        )


class TooManyShardsError(CounterError, TatamiError):
    """The requested target needs more shards than a read can sum (400 naming target_wcu)."""

    status = HTTPStatus.BAD_REQUEST

    def __init__(self, needed: int, limit: int) -> None:
        super().__init__(f"target_wcu: target_wcu needs {needed} shards; at most {limit} are supported")


class CounterUnavailableError(CounterError, DependencyError):
    """DynamoDB failed a call (throttled past the SDK's retries, unreachable, timed out, or unprocessed
    keys left): the caller should retry (503 with Retry-After, `common.dependencies`)."""


class KeyReusedError(CounterError, TatamiError):
    """An Idempotency-Key already used on this counter for a different `by` (422, as the IETF
    Idempotency-Key draft answers a key reused with a different payload)."""

    status = HTTPStatus.UNPROCESSABLE_ENTITY

    def __init__(self) -> None:
        super().__init__("Idempotency-Key: already used for a different `by` on this counter; use a new key")


class KeyInProgressError(CounterError, ConflictError):
    """Another request with this Idempotency-Key is committing right now: a 409 saying when to retry."""

    retry_after = 1

    def __init__(self) -> None:
        super().__init__(
            "Idempotency-Key: a request with this key is being committed right now; retry shortly"
        )


class IncrementConflictError(CounterError):
    """Another transaction held the shard, or the key's record, at the same instant: retried at once."""

    def __init__(self, on_key: bool) -> None:
        super().__init__("another request with this Idempotency-Key" if on_key else "a busy shard")
        self.on_key = on_key


class RollupWriteError(CounterError):
    """The roll-up item of a counter could not be written; its stream records are retried."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"roll-up of counter {name!r} failed: {reason}")
        self.name = name


class RecordNotAppliedError(CounterError):
    """A stream record the roll-up did not apply; raising it reports the record as a batch failure."""
