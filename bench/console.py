"""Is each console view's data request as fast as the API call or CLI function it wraps?

Runs tatami's app on a local cloud of its own (free ports) with the console mounted, puts the console
tests' places and orders through the API, then times, side by side, N times each (median and p95):

* tables: `GET /console/api/items` (a Scan page of 50, grouped) against the same Scan from boto3;
* places: the map's request, `GET /places/search?...&explain=true`, against the same search without
  EXPLAIN, and the cells of its chosen plan (`POST /console/api/zcells`);
* traffic: `GET /console/api/traffic?scale=50` against what `tatami local insights --scale 50` computes
  (`tatami.capacity.adapters.insights.analyse` over the same records, in this process);
* operations: `GET /console/api/operations` against what it gathers, asked directly: the stream
  status, the index lag (each indexed table's status item), a peek at every queue, the IAM report and
  the alarms' states.

    .venv/bin/python bench/console.py [--repeat 30]

Prints the figures and writes bench/results/console.json.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests
from _results import write_results

from tatami.capacity.adapters.insights import analyse
from tatami.capacity.adapters.traffic import read_records, schemas_from
from tatami.capacity.workloads.builders import Setting
from tatami.console import mount
from tatami.console.operations import index_lag, parked
from tatami.local.cloud import LocalCloud, LocalCloudConfig, free_ports
from tatami.local.iam.report import least_privilege
from tatami.target import indexed_tables
from tests.integration.console import data
from tests.support.synthesis import synthesize

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results" / "console.json"
BOX = {"latitude_min": 30, "latitude_max": 46, "longitude_min": 124, "longitude_max": 146}


def timed(call: Callable[[], Any], repeat: int) -> dict[str, float]:
    call()  # warm: the first call of a function starts its execution environment
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        seconds.append((time.perf_counter() - started) * 1000)
    ordered = sorted(seconds)
    return {"median_ms": statistics.median(seconds), "p95_ms": ordered[round(0.95 * (len(ordered) - 1))]}


def ok(response: requests.Response) -> Any:
    response.raise_for_status()
    return response.json()


def pairs(cloud: LocalCloud, console: str, repeat: int) -> dict[str, dict[str, dict[str, float]]]:
    api, session = cloud.api_url, requests.Session()
    places = cloud.outputs["PlacesTableName"]
    dynamodb = cloud.client("dynamodb")
    tables = [table.name for table in cloud.assembly.tables]
    searched = ok(session.get(f"{api}/places/search", params={**BOX, "explain": "true"}))
    chosen = next(row for row in searched["plan"] if row["chosen"])
    cells = {
        "table": "places",
        "index": chosen["index"],
        "ranges": chosen.get("ranges") or [],
        "axes": ["longitude", "latitude"],
    }

    sqs, queues = cloud.client("sqs"), [cloud.resolver.refs[queue] for queue in cloud.assembly.queues]
    indexed = indexed_tables(cloud.outputs)

    def gathered() -> Any:  # what the operations view shows, each part asked of the cloud directly
        return (
            cloud.stream_status(),
            index_lag(indexed, dynamodb),
            [parked(sqs, queue) for queue in queues],
            least_privilege(cloud.config.work_dir),
            cloud.alarm_states(),
        )

    def insights() -> Any:  # `tatami local insights`: the session's records, the tables' keys, the replay
        records, _ = read_records(cloud.traffic_dir)
        return analyse(records, schemas_from(dynamodb, tables), Setting(), 50)

    return {
        "tables": {
            "console": timed(
                lambda: ok(session.get(f"{console}/api/items", params={"table": places, "limit": 50})), repeat
            ),
            "wrapped": timed(lambda: dynamodb.scan(TableName=places, Limit=50), repeat),
        },
        "places": {
            "console": timed(
                lambda: ok(session.get(f"{api}/places/search", params={**BOX, "explain": "true"})), repeat
            ),
            "wrapped": timed(lambda: ok(session.get(f"{api}/places/search", params=BOX)), repeat),
            "cells": timed(lambda: ok(session.post(f"{console}/api/zcells", json=cells)), repeat),
        },
        "traffic": {
            "console": timed(lambda: ok(session.get(f"{console}/api/traffic", params={"scale": 50})), repeat),
            "wrapped": timed(insights, repeat),
        },
        "operations": {
            "console": timed(lambda: ok(session.get(f"{console}/api/operations")), repeat),
            "wrapped": timed(gathered, repeat),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        synthesize(root / "cdk.out")
        config = LocalCloudConfig(
            cdk_out=root / "cdk.out",
            **free_ports(),
            work_dir=root / "work",
            echo_logs=False,
            warm_functions=False,
        )
        with LocalCloud(config) as cloud:
            console = mount(cloud)
            data.warm(cloud)
            data.put_places(cloud)
            data.post_orders(cloud)
            found = pairs(cloud, console, args.repeat)
    print(f"console data requests against what they wrap, median (p95) ms over {args.repeat} calls each")
    for view, timings in found.items():
        line = "  ".join(f"{name} {t['median_ms']:7.1f} ({t['p95_ms']:6.1f})" for name, t in timings.items())
        ratio = timings["console"]["median_ms"] / timings["wrapped"]["median_ms"]
        print(f"  {view:<11} {line}   console/wrapped {ratio:.2f}x")
    write_results(RESULTS, {"repeat": args.repeat, "views": found})


if __name__ == "__main__":
    main()
