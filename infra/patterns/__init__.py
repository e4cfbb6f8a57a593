"""tatami's patterns as constructs any CDK app imports: each takes your table or settings, brings its own
function code and layers, and needs nothing of tatami's stack.

- `ZOrderIndex`: Z-order and sorted indexes from a `zindex.IndexedTable` declaration on any `TableV2`,
  kept by the engine's stream maintainer; `grant_search(function)`.
- `ShardedCounter`: write-sharded counters with exactly-once keyed increments, a reader and a roll-up.
- `IpRangeTable`: IP ranges looked up in one Query per address (seed 003), with its lookup function.
- `TableExport`: tables exported on a schedule to S3 and catalogued for Athena (`ExportSchedule`).
- `PatternFunctions`: how their functions are made (share layers, name the service, deploy safely).

docs/patterns.md shows them in an app (examples/listings) and is their reference.

>>> from infra.patterns import ShardedCounter, ZOrderIndex
"""

from __future__ import annotations

from infra.constructs.pattern_functions import PatternFunctions, stack_layers
from infra.patterns.export_settings import ExportSchedule
from infra.patterns.ip_range_table import IpRangeTable
from infra.patterns.sharded_counter import CounterSettings, ShardedCounter
from infra.patterns.table_export import TableExport
from infra.patterns.zorder_index import ZOrderIndex

__all__ = [
    "CounterSettings",
    "ExportSchedule",
    "IpRangeTable",
    "PatternFunctions",
    "ShardedCounter",
    "TableExport",
    "ZOrderIndex",
    "stack_layers",
]
