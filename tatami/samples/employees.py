"""Sample data of the employees service: seed 004's 1,000 employees (data/labs_employees.csv; where it
comes from: data/labs.ATTRIBUTION.md), their items as the service writes them (4,000) put straight into
the table in BatchWriteItem calls: far faster than 1,000 HTTP PUTs."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from tatami.samples import DATA
from tatami.samples.writing import has_item, write_items
from tatami.target import cloud_target
from tatami_functions.stack_outputs import OUTPUT_EMPLOYEES_TABLE

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress
    from tatami_functions.employees.schemas import EmployeeIn

EXAMPLES = tuple(
    quote(path, safe="/?=&")
    for path in (
        "/employees?state=TX&city=Dallas",
        "/employees?title=Software Engineer",
        "/employees/managers",
        "/employees/40",
    )
)


def employees() -> list[tuple[int, EmployeeIn]]:
    """The workshop's employees.csv as (id, employee) pairs, in file order."""
    from tatami_functions.employees.schemas import from_csv_row

    with (DATA / "labs_employees.csv").open(encoding="utf-8", newline="") as rows:
        return [from_csv_row(row) for row in csv.reader(rows)]


def load_employees(client: Any, table_name: str, sample: Iterable[tuple[int, EmployeeIn]]) -> int:
    """Bulk-write employees into an empty table (nothing stale to remove); the items written."""
    from tatami_functions.employees.partition import employee_items

    return write_items(client, table_name, (item for eid, e in sample for item in employee_items(eid, e)))


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    """Bulk-write the employees unless a kept database holds them already; a one-line summary.

    For example (not run as a doctest)::

        load(cloud, lambda done, total: None)
        # -> '1,000 employees (4,000 items)'
    """
    target = cloud_target(cloud)
    client, table = target.client("dynamodb"), target.output(OUTPUT_EMPLOYEES_TABLE)
    if has_item(client, table, {"PK": {"S": "e#1"}, "SK": {"S": "master"}}):
        return "already loaded (kept as they are)"
    written = load_employees(client, table, employees())
    progress(1, 1)
    return f"{written // 4:,} employees ({written:,} items)"
