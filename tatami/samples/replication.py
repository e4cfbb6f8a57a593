"""Sample data of the replication service: 200 web-server log lines of seed 004's lab, written into
the `logfile` table as any writer would; the stream then replicates them into `logfile_replica`."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from tatami.samples.writing import has_item, write_items
from tatami.target import cloud_target
from tatami_functions.stack_outputs import OUTPUT_LOGFILE_TABLE

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress

LOG_LINES = 200
EXAMPLES: tuple[str, ...] = ()  # the service has no route: its tables show in the console
HOSTS = ("66.249.67.3", "64.233.172.17", "74.125.74.193", "207.46.13.76", "72.30.142.87")
URLS = ("/gwidgets/alexa.xml", "/gadgets/adpowers/AlexaRank/ALL_ALL.xml", "/", "/index.html", "/rss.xml")


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
    """Write the log lines unless a kept database holds them already; a one-line summary."""
    target = cloud_target(cloud)
    client, table = target.client("dynamodb"), target.output(OUTPUT_LOGFILE_TABLE)
    if has_item(client, table, {"PK": {"S": "request#0"}}):
        return "already loaded (kept as they are)"
    rng = random.Random(2009)
    written = write_items(client, table, (log_line(n, rng) for n in range(LOG_LINES)))
    progress(1, 1)
    return f"{written} log lines (replicated by the stream)"
