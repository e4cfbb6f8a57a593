"""The roll-up: a stream function that keeps one total item per counter for cheap reads.

Each record of the shards table's stream carries the shard's absolute count and its write version
(NewImage). A batch is reduced to the newest state per shard, then each counter's roll-up item is
written once (one write per counter per batch, not per increment: the roll-up item is a single key
and must stay under its own 1,000 WCU). The write only replaces entries that are behind
(CountersTable.save_rollup), so a redelivered batch, a retry after a partial failure or a
duplicate record cannot double count, and one lost record heals with the shard's next record.

Failures are reported in the stream consumers' one shape (`common.stream_batches`): records of a
counter whose write failed, and malformed records, are batch item failures; Lambda retries from the
first of them.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.typing import LambdaContext

from tatami_functions.common.metric_names import ROLLUP_LAG
from tatami_functions.common.observability import logger, metrics
from tatami_functions.common.stream_batches import partial_response
from tatami_functions.counters.counters_table import CountersTable
from tatami_functions.counters.exceptions import RecordNotAppliedError, RollupWriteError
from tatami_functions.counters.model import ShardState
from tatami_functions.counters.sharding import parse_shard_key
from tatami_functions.counters.shards_table import COUNT, KEY, VERSION

Update = tuple[str, int, ShardState]  # counter name, shard number, the shard's state


def shard_update(record: dict[str, Any]) -> Update | None:
    """What one stream record says about its shard; None for a REMOVE (counters are never deleted).

    >>> shard_update({"eventName": "MODIFY", "dynamodb": {"ApproximateCreationDateTime": 1700000000,
    ...     "Keys": {"pk": {"S": "votes-A#3"}}, "NewImage": {"pk": {"S": "votes-A#3"},
    ...     "count": {"N": "7"}, "v": {"N": "5"}}}})
    ('votes-A', 3, ShardState(version=5, count=7, at=1700000000))
    """
    if record.get("eventName") == "REMOVE":
        return None
    stream = record["dynamodb"]
    try:
        name, shard = parse_shard_key(stream["Keys"][KEY]["S"])
        image = stream["NewImage"]
        state = ShardState(
            int(image[VERSION]["N"]), int(image[COUNT]["N"]), int(stream["ApproximateCreationDateTime"])
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a shard record ({type(exc).__name__}: {exc})") from None
    return name, shard, state


def newest_states(updates: Iterable[Update]) -> dict[str, dict[int, ShardState]]:
    """Per counter, the newest state of each shard (highest version).

    >>> newest_states([("a", 0, ShardState(1, 1, 9)), ("a", 0, ShardState(2, 3, 9))])
    {'a': {0: ShardState(version=2, count=3, at=9)}}
    """
    newest: dict[str, dict[int, ShardState]] = {}
    for name, shard, state in updates:
        shards = newest.setdefault(name, {})
        if shard not in shards or shards[shard].version < state.version:
            shards[shard] = state
    return newest


def handle_batch(event: dict[str, Any], context: LambdaContext | None = None) -> PartialItemFailureResponse:
    """Apply a batch to the roll-up items; the partial-batch response names what must be retried."""
    failed: dict[str, str] = {}  # sequence number -> why
    updates: dict[str, Update] = {}
    for record in event["Records"]:
        sequence = record["dynamodb"]["SequenceNumber"]
        try:
            update = shard_update(record)
        except ValueError as exc:
            logger.warning("malformed shard record", extra={"sequence_number": sequence, "error": str(exc)})
            failed[sequence] = str(exc)
            continue
        if update is not None:
            updates[sequence] = update
    failed_counters = _save(newest_states(updates.values()))
    failed |= {seq: failed_counters[u[0]] for seq, u in updates.items() if u[0] in failed_counters}
    _record_lag(updates.values())
    return partial_response(event, context, failed, RecordNotAppliedError)


def _save(states: dict[str, dict[int, ShardState]]) -> dict[str, str]:
    """Write each counter's roll-up; the counters whose write failed, with the reason."""
    failures = {}
    for name, shards in states.items():
        try:
            CountersTable.from_environment().save_rollup(name, shards)
        except RollupWriteError as exc:
            logger.warning(
                "roll-up write failed; its records will be retried",
                extra={"counter": name, "error": str(exc)},
            )
            failures[name] = str(exc)
    return failures


def _record_lag(updates: Iterable[Update]) -> None:
    oldest = min((state.at for _, _, state in updates), default=None)
    if oldest is not None:
        metrics.add_metric(name=ROLLUP_LAG, unit=MetricUnit.Seconds, value=time.time() - oldest)
