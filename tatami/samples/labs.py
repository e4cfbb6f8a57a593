"""Sample data of seed 004's labs: the workshop's invoices, its 1,000 employees, and web-server logs.

Invoices go through the API (`PUT /invoices/{id}`), employees through the lab's repository (its
bulk path: 4,000 items in BatchWriteItem calls, far faster than 1,000 HTTP PUTs), and log lines
straight into the `logfile` table, as any writer would: the stream then replicates them into
`logfile_replica`. Where the data comes from: data/labs.ATTRIBUTION.md.
"""

from __future__ import annotations

import csv
import json
import random
import time
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
    from tatami_functions.employees.models import EmployeeIn

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
    from tatami_functions.employees.models import from_csv_row

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


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    """Load the three labs' samples into a started local cloud; a one-line summary.

    >>> load(cloud, lambda done, total: None)  # doctest: +SKIP
    '11 invoices, 1,000 employees (4,000 items), 200 log lines (replicated by the stream)'
    """
    from boto3.dynamodb.types import TypeSerializer

    from tatami_functions.employees.repository import EmployeesTable

    target, sample = cloud_target(cloud), invoices()
    total = len(sample) + 2
    for done, invoice in enumerate(sample, start=1):
        status, answer = send(cloud.api_url, "PUT", f"/invoices/{invoice.pop('id')}", invoice)
        if status >= 400:
            raise RuntimeError(f"PUT /invoices -> {status}: {answer}")
        progress(done, total)
    client = target.client("dynamodb")
    employees_table = EmployeesTable(target.output(OUTPUT_EMPLOYEES_TABLE), client=client)
    if _has(client, employees_table.table_name, {"PK": {"S": "e#1"}, "SK": {"S": "master"}}):
        return f"{len(sample)} invoices; employees and log lines already loaded (kept as they are)"
    written = employees_table.load(employees())  # the bulk path: an empty table has nothing stale
    progress(total - 1, total)
    rng, serializer, logfile = random.Random(2009), TypeSerializer(), target.output(OUTPUT_LOGFILE_TABLE)
    lines = [{k: serializer.serialize(v) for k, v in log_line(n, rng).items()} for n in range(LOG_LINES)]
    for start in range(0, len(lines), 25):
        _write_batch(client, logfile, lines[start : start + 25])
    progress(total, total)
    return (
        f"{len(sample)} invoices, {written // 4:,} employees ({written:,} items), "
        f"{LOG_LINES} log lines (replicated by the stream)"
    )


def _has(client: Any, table: str, key: dict[str, Any]) -> bool:
    """Whether a kept database (`tatami local --db-path`) already holds the sample."""
    return "Item" in client.get_item(TableName=table, Key=key, ConsistentRead=True)


def _write_batch(client: Any, table: str, items: list[dict[str, Any]]) -> None:
    """One BatchWriteItem, resending what DynamoDB left unprocessed (with a short backoff)."""
    requests: list[Any] = [{"PutRequest": {"Item": item}} for item in items]
    for attempt in range(8):
        unprocessed = client.batch_write_item(RequestItems={table: requests}).get("UnprocessedItems", {})
        requests = unprocessed.get(table, [])
        if not requests:
            return
        time.sleep(0.05 * 2**attempt)
    raise RuntimeError(f"{len(requests)} log lines stayed unprocessed")
