"""What a `TableExport` is told and checks: its schedule (`ExportSchedule`), and whether each table can be
exported (point-in-time recovery, which ExportTableToPointInTime needs) and with which key attributes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import jsii
from aws_cdk import Duration, Stack
from aws_cdk import aws_dynamodb as dynamodb
from constructs import IValidation

__all__ = ["ExportSchedule", "has_point_in_time_recovery", "key_definitions"]

CHECK_EVERY = Duration.hours(1)
FULL_EVERY = Duration.days(1)
KEEP_EXPORTS = Duration.days(365)


@dataclass(frozen=True, slots=True)
class ExportSchedule:
    """How often the schedule looks (`check_every`), exports fully and incrementally, and keeps exports.

    >>> ExportSchedule(full_every=Duration.hours(12)).export_stale_after.to_hours()
    18
    """

    check_every: Duration = CHECK_EVERY
    full_every: Duration = FULL_EVERY
    incremental_every: Duration | None = None  # e.g. Duration.hours(1): the changes since the last export
    keep_exports: Duration | None = KEEP_EXPORTS  # None: kept for ever (in the bucket the pattern makes)
    # No export completed for this long alarms (default: a full export's interval and 6 hours, the time
    # a large table's export may take).
    stale_after: Duration | None = None

    def __post_init__(self) -> None:
        if self.full_every.to_hours() < self.check_every.to_hours():
            raise ValueError("full_every must be at least check_every (the schedule looks every check_every)")
        if self.incremental_every is not None and not 0.25 <= self.incremental_every.to_hours() <= 24:
            raise ValueError("incremental_every must be within 15 minutes..24 hours (DynamoDB's window)")

    @property
    def export_stale_after(self) -> Duration:
        return self.stale_after or Duration.hours(self.full_every.to_hours() + 6)


@jsii.implements(IValidation)
class NeedsPointInTimeRecovery:
    """Synthesis fails naming any exported table without point-in-time recovery (exports need it)."""

    def __init__(self, tables: Mapping[str, dynamodb.TableV2]) -> None:
        self.tables = tables

    def validate(self) -> list[str]:
        return [
            f"TableExport: table {key!r} has no point-in-time recovery; ExportTableToPointInTime needs it"
            for key, table in self.tables.items()
            if not has_point_in_time_recovery(table)
        ]


def key_definitions(table: dynamodb.TableV2) -> list[dict[str, str]]:
    """The table's AttributeDefinitions (its key and index attributes) as the template writes them."""
    cfn: Any = table.node.default_child
    return [
        {"AttributeName": d["attributeName"], "AttributeType": d["attributeType"]}
        for d in Stack.of(table).resolve(cfn.attribute_definitions)
    ]


def has_point_in_time_recovery(table: dynamodb.TableV2) -> bool:
    """Whether every replica of `table` keeps point-in-time recovery (what exports need)."""
    replicas: Any = Stack.of(table).resolve(getattr(table.node.default_child, "replicas", None)) or []
    return bool(replicas) and all(
        (replica.get("pointInTimeRecoverySpecification") or {}).get("pointInTimeRecoveryEnabled") is True
        for replica in replicas
    )
