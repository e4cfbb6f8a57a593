"""Sample data of seed 004's labs: the workshop's invoices, its 1,000 employees, and web-server logs.

Invoices go through the API (`PUT /invoices/{id}`), employees straight into their table (their
items as the service writes them, 4,000 in BatchWriteItem calls: far faster than 1,000 HTTP PUTs),
and log lines into the `logfile` table, as any writer would: the stream then replicates them into
`logfile_replica`. Both batch loads go through `common.batch.write_all`, the one batch write with
one retry policy. Where the data comes from: data/labs.ATTRIBUTION.md.
"""

from __future__ import annotations

import csv
import json
import random
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from tatami.samples.models_workshop import send
from tatami.target import cloud_target
from tatami_functions.stack_outputs import OUTPUT_EMPLOYEES_TABLE, OUTPUT_LOGFILE_TABLE

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress
    from tatami_functions.employees.schemas import EmployeeIn

NAME = "labs (seed 004)"
DATA = Path(__file__).resolve().parent / "data"
INVOICES, EMPLOYEES = DATA / "labs_invoices.json", DATA / "labs_employees.csv"
LOG_LINES = 200
EXAMPLES = tuple(
    quote(path, safe="/?=&")
    for path in (
        "/invoices/1249",
        "/customers/1249/invoices",
        "/bills/3392",
        "/employees?state=TX&city=Dallas",
        "/employees?title=Software Engineer",
        "/employees/managers",
        "/employees/40",
    )
)
HOSTS = ("66.249.67.3", "64.233.172.17", "74.125.74.193", "207.46.13.76", "72.30.142.87")
URLS = ("/gwidgets/alexa.xml", "/gadgets/adpowers/AlexaRank/ALL_ALL.xml", "/", "/index.html", "/rss.xml")


def invoices() -> list[dict[str, Any]]:
    """The invoices of the adjacency-list lab, each with its `id` and the body of its PUT."""
    return list(json.loads(INVOICES.read_text(encoding="utf-8"))["invoices"])


def employees() -> list[tuple[int, EmployeeIn]]:
    """The workshop's employees.csv as (id, employee) pairs, in file order."""
    from tatami_functions.employees.schemas import from_csv_row

    with EMPLOYEES.open(encoding="utf-8", newline="") as rows:
        return [from_csv_row(row) for row in csv.reader(rows)]


def log_line(request_id: int, rng: random.Random) -> dict[str, Any]:
    """One item of the workshop's logfile table (its attributes, its `request#`/`host#` keys).

    >>> sorted(log_line(7, random.Random(7)))[:4]
    ['GSI_1_PK', 'PK', 'bytessent', 'date']
    """
    host, code = rng.choice(HOSTS), rng.choices((200, 304, 404, 500), (80, 10, 7, 3))[0]
    when = datetime(2009, 7, 21, tzinfo=UTC) + timedelta(seconds=rng.randrange(86_400))
    item: dict[str, Any] = {
        "PK": f"request#{request_id}",
        "GSI_1_PK": f"host#{host}",
        "requestid": request_id,
        "host": host,
        "date": when.date().isoformat(),
        "hourofday": when.hour,
        "timezone": "GMT-0700",
        "method": "GET",
        "url": rng.choice(URLS),
        "responsecode": code,
        "bytessent": rng.randrange(200, 5000),
        "useragent": "Mozilla/5.0 (compatible) Feedfetcher-Google; (+http://www.google.com/feedfetcher.html)",
    }
    if code == 500:
        item["servererror"] = "5xx"  # the workshop's sparse marker
    return item


def write_items(client: Any, table_name: str, items: Iterable[dict[str, Any]]) -> int:
    """Put plain `items` into an empty table with `common.batch.write_all`; how many were written."""
    from tatami_functions.common.attribute_values import low_level
    from tatami_functions.common.batch import write_all
    from tatami_functions.common.repository import TableRepository

    class Table(TableRepository):
        noun, unavailable = table_name, RuntimeError

    requests = [{"PutRequest": {"Item": low_level(item)}} for item in items]
    return write_all(Table(table_name, client=client), requests)


def load_employees(client: Any, table_name: str, sample: Iterable[tuple[int, EmployeeIn]]) -> int:
    """Bulk-write employees into an empty table (nothing stale to remove); the items written."""
    from tatami_functions.employees.partition import employee_items

    return write_items(client, table_name, (item for eid, e in sample for item in employee_items(eid, e)))


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    """Load the three labs' samples into a started local cloud; a one-line summary.

    For example (not run as a doctest)::

        load(cloud, lambda done, total: None)
        # -> '11 invoices, 1,000 employees (4,000 items), 200 log lines (replicated by the stream)'
    """
    target, sample = cloud_target(cloud), invoices()
    total = len(sample) + 2
    for done, invoice in enumerate(sample, start=1):
        status, answer = send(cloud.api_url, "PUT", f"/invoices/{invoice.pop('id')}", invoice)
        if status >= 400:
            raise RuntimeError(f"PUT /invoices -> {status}: {answer}")
        progress(done, total)
    client, employees_table = target.client("dynamodb"), target.output(OUTPUT_EMPLOYEES_TABLE)
    if _has(client, employees_table, {"PK": {"S": "e#1"}, "SK": {"S": "master"}}):
        return f"{len(sample)} invoices; employees and log lines already loaded (kept as they are)"
    written = load_employees(client, employees_table, employees())
    progress(total - 1, total)
    rng = random.Random(2009)
    write_items(client, target.output(OUTPUT_LOGFILE_TABLE), (log_line(n, rng) for n in range(LOG_LINES)))
    progress(total, total)
    return (
        f"{len(sample)} invoices, {written // 4:,} employees ({written:,} items), "
        f"{LOG_LINES} log lines (replicated by the stream)"
    )


def _has(client: Any, table: str, key: dict[str, Any]) -> bool:
    """Whether a kept database (`tatami local --db-path`) already holds the sample."""
    return "Item" in client.get_item(TableName=table, Key=key, ConsistentRead=True)
