"""How fast the local cloud is: stream latency and the API's overhead over calling a handler directly.

Runs the probe app (tests/fixtures/probe_app) on a local cloud of its own (free ports):

* stream latency: a DynamoDB write (PutItem straight to DynamoDB Local) until the stream-triggered
  function starts (the handler records time.time() at its start), for N writes one at a time;
* API overhead: the same handler answering GET /notes?prefix=... through the local API Gateway
  (HTTP keep-alive, proxy event, worker process) against calling it in this process.

    .venv/bin/python bench/local_cloud.py [--writes 200] [--requests 500]

Prints median and p95 and writes bench/results/local_cloud.json.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import requests
from _results import write_results

from tatami.local.cloud import LocalCloud, LocalCloudConfig, free_ports

REPO = Path(__file__).resolve().parents[1]
PROBE_APP = REPO / "tests" / "fixtures" / "probe_app"
RESULTS = REPO / "bench" / "results" / "local_cloud.json"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def summary(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "p95": percentile(values, 0.95), "n": len(values)}


def stream_latencies(cloud: LocalCloud, writes: int) -> list[float]:
    """Seconds from just before PutItem until the stream function's invocation began."""
    dynamodb = cloud.client("dynamodb")
    notes, seen = cloud.outputs["NotesTableName"], cloud.outputs["SeenTableName"]
    latencies = []
    for _ in range(writes):
        key = f"bench-{uuid.uuid4().hex[:10]}"
        written = time.time()
        dynamodb.put_item(TableName=notes, Item={"id": {"S": key}})
        while True:
            item = dynamodb.get_item(TableName=seen, Key={"id": {"S": f"partial#{key}#INSERT"}}).get("Item")
            if item:
                latencies.append(float(item["handler_started"]["S"]) - written)
                break
            time.sleep(0.005)
    return latencies


def api_latencies(cloud: LocalCloud, requests_count: int) -> list[float]:
    session = requests.Session()
    url = f"{cloud.api_url}/notes"
    session.get(url, params={"prefix": "warm"}, timeout=10)
    latencies = []
    for n in range(requests_count):
        started = time.perf_counter()
        response = session.get(url, params={"prefix": f"p{n}"}, timeout=10)
        latencies.append(time.perf_counter() - started)
        assert response.status_code == 200, response.text
    return latencies


def direct_latencies(cloud: LocalCloud, requests_count: int) -> list[float]:
    """The same handler imported here, called with a ready-made proxy event."""
    os.environ.update(
        {
            "NOTES_TABLE": cloud.outputs["NotesTableName"],
            "SEEN_TABLE": "unused",
            "AWS_DEFAULT_REGION": "us-east-1",
        }
    )
    sys.path.insert(0, str(PROBE_APP / "functions"))
    handler = importlib.import_module("probe.api").handler
    latencies = []
    for n in range(requests_count):
        event: dict[str, Any] = {
            "resource": "/notes",
            "httpMethod": "GET",
            "queryStringParameters": {"prefix": f"p{n}"},
        }
        started = time.perf_counter()
        result = handler(event, None)
        latencies.append(time.perf_counter() - started)
        assert result["statusCode"] == 200
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=200, help="stream writes to time, one at a time")
    parser.add_argument("--requests", type=int, default=500, help="API requests to time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cdk_out = Path(tmp) / "cdk.out"
        subprocess.run(
            [sys.executable, str(PROBE_APP / "app.py"), str(cdk_out)], check=True, capture_output=True
        )
        config = LocalCloudConfig(
            cdk_out=cdk_out,
            **free_ports(),
            work_dir=Path(tmp) / "work",
            echo_logs=False,
        )
        with LocalCloud(config) as cloud:
            stream = summary(stream_latencies(cloud, args.writes))
            api = summary(api_latencies(cloud, args.requests))
            direct = summary(direct_latencies(cloud, args.requests))
            poll_interval = cloud.config.poll_interval
    ms = 1000
    print(f"local cloud benchmark (probe app, stream poll interval {poll_interval * ms:.0f} ms)")
    print(f"{'measure':<46}{'median':>10}{'p95':>10}{'n':>6}")
    rows = [
        ("stream: PutItem -> stream handler start (ms)", stream),
        ("API: GET through the local API Gateway (ms)", api),
        ("direct: the same handler called in-process (ms)", direct),
    ]
    for name, figures in rows:
        print(f"{name:<46}{figures['median'] * ms:>10.3f}{figures['p95'] * ms:>10.3f}{figures['n']:>6}")
    overhead = {"median": api["median"] - direct["median"], "p95": api["p95"] - direct["p95"]}
    print(
        f"{'API overhead per request (ms)':<46}{overhead['median'] * ms:>10.3f}{overhead['p95'] * ms:>10.3f}"
    )
    print(f"goal: stream median under 1 s: {'met' if stream['median'] < 1 else 'NOT met'}")
    write_results(
        RESULTS,
        {
            "stream_seconds": stream,
            "api_seconds": api,
            "direct_seconds": direct,
            "overhead_seconds": overhead,
            "poll_interval_seconds": poll_interval,
        },
    )


if __name__ == "__main__":
    main()
