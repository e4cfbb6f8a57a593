"""The maintainer's progress, kept in one status item of the table, and the index lag a search reports.

After each batch the maintainer records when it finished, how old the batch's oldest record was when
it got there (the stream's iterator age, as Lambda's IteratorAge metric measures it), whether the batch
was full (a full batch means more records were waiting), and ADDs the entries it put into (or took out
of) the indexes. A search turns that into ``index_lag_seconds``: 0 when the maintainer had caught up;
otherwise how far behind the newest write its answer may be.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "BATCH_SIZE_ENV",
    "CAUGHT_UP_SECONDS",
    "LAG_METRIC",
    "UNENCODABLE_METRIC",
    "batch_fields",
    "lag_seconds",
]

CAUGHT_UP_SECONDS = 5.0  # an iterator age below this (batching window + a poll) counts as caught up

# What the maintainer's Lambda handler reads and emits, named here (no Powertools) so that a CDK app
# deploying it, and its alarms, can import them without the handler's dependencies.
BATCH_SIZE_ENV = "ZINDEX_BATCH_SIZE"
"""The environment variable holding the stream mapping's batch size: a full batch means a backlog."""
LAG_METRIC = "IndexLagSeconds"
"""The metric, per batch, of how long its oldest write waited for its index keys (alarm on it)."""
UNENCODABLE_METRIC = "UnencodableItems"
"""The metric, per batch, of items left out of the indexes (values no index can order; searches miss
them)."""


def batch_fields(oldest_record_s: float | None, full: bool, now_s: float) -> dict[str, Any]:
    """The status fields one batch sets (times in epoch seconds).

    >>> batch_fields(100.0, True, 130.5)
    {'batch_at': Decimal('130.5'), 'iterator_age_s': Decimal('30.5'), 'batch_full': True}
    """
    from decimal import Decimal

    age = 0.0 if oldest_record_s is None else max(0.0, now_s - oldest_record_s)
    return {
        "batch_at": Decimal(str(round(now_s, 3))),
        "iterator_age_s": Decimal(str(round(age, 3))),
        "batch_full": full,
    }


def lag_seconds(status: Mapping[str, Any], now_s: float) -> float:
    """How far behind the writes the index may be, from the status item (0: caught up or never used).

    >>> lag_seconds({"batch_at": 100, "iterator_age_s": 30, "batch_full": True}, 110.0)
    40.0
    >>> lag_seconds({"batch_at": 100, "iterator_age_s": 2, "batch_full": False}, 500.0)
    0.0
    """
    if "batch_at" not in status:
        return 0.0
    age = float(status.get("iterator_age_s", 0))
    if status.get("batch_full"):  # more records were waiting: the lag grows until the next batch
        return round(age + max(0.0, now_s - float(status["batch_at"])), 1)
    return round(age, 1) if age >= CAUGHT_UP_SECONDS else 0.0
