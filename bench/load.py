"""Bounded load on the local cloud (127.0.0.1 only): a realistic mix through the API, then exact totals.

Starts the app on a local cloud of its own (free ports, the IP sample and a few hundred places
loaded), runs locust headless in its own process (bench/_load/locustfile.py: lookups, searches,
counter increments and reads, locker writes) bounded in users, requests and time, and prints
p50/p95/p99 and throughput per route. Then it checks what a user trusts a data service for:
0 errors, every counter equal to its accepted increments (shards and roll-up), every written
locker readable as written.

    .venv/bin/python bench/load.py [--users 6] [--requests 4000] [--seconds 90]

Writes bench/results/load.json; exits 1 if a check fails.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import requests
from _results import write_results

from tatami.local.cloud import LocalCloud, LocalCloudConfig, free_ports
from tatami.samples.catalog import SAMPLES

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results" / "load.json"
COUNTERS = [f"load-{n}" for n in range(4)]
PLACES = 300
MIX_FUNCTIONS = ("IpLookup", "PlacesApi", "CountersWrite", "CountersRead", "WorkshopLockers")  # logical ids


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=6)
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--seconds", type=int, default=90)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        subprocess.run(
            [sys.executable, "app.py"],
            cwd=REPO,
            check=True,
            capture_output=True,
            env={**os.environ, "CDK_OUTDIR": str(root / "cdk.out")},
        )
        with LocalCloud(_config(root)) as cloud:
            _prepare(cloud)
            _warm(cloud, args.users)
            stats, tally, seconds = _run_locust(cloud, root, args)
            checks = _check(cloud, stats, tally)
    _report(stats, checks, args, seconds)
    return 0 if all(ok for ok, _ in checks.values()) else 1


def _config(root: Path) -> LocalCloudConfig:
    return LocalCloudConfig(
        cdk_out=root / "cdk.out",
        **free_ports(),
        work_dir=root / "work",
        echo_logs=False,
    )


def _prepare(cloud: LocalCloud) -> None:
    """The IP sample, counters and places to search (through the API, as users would)."""
    SAMPLES["ip_lookup"].load(cloud, lambda _done, _total: None)
    for name in COUNTERS:
        requests.put(
            f"{cloud.api_url}/counters/{name}", json={"target_wcu": 1000}, timeout=60
        ).raise_for_status()
    rng = random.Random(19)
    for n in range(PLACES):
        place = {
            "name": f"p{n}",
            "latitude": rng.uniform(30, 45),
            "longitude": rng.uniform(129, 145),
            "population": rng.randrange(100_000),
        }
        requests.put(f"{cloud.api_url}/places/load-{n}", json=place, timeout=60).raise_for_status()


def _warm(cloud: LocalCloud, users: int) -> None:
    """As many warm execution environments per function as there are users (provisioned concurrency):
    the figures measure serving, not Lambda's cold starts."""
    for function_id, pool in cloud.pools.items():
        if function_id.startswith(MIX_FUNCTIONS):
            pool.warm(users)


def _run_locust(cloud: LocalCloud, root: Path, args: argparse.Namespace) -> tuple[dict[str, Any], Any, float]:
    tally = root / "tally.json"
    env = {
        **os.environ,
        "LOAD_COUNTERS": json.dumps(COUNTERS),
        "LOAD_MAX_REQUESTS": str(args.requests),
        "LOAD_TALLY": str(tally),
    }
    started = time.monotonic()
    subprocess.run(
        [
            str(Path(sys.executable).with_name("locust")),
            "-f",
            str(REPO / "bench" / "_load" / "locustfile.py"),
            "--headless",
            "--only-summary",
            "-u",
            str(args.users),
            "-r",
            str(args.users),
            "-t",
            f"{args.seconds}s",
            "--host",
            cloud.api_url,
            "--csv",
            str(root / "load"),
            "--exit-code-on-error",
            "0",
        ],
        cwd=REPO,
        env=env,
        check=True,
        capture_output=True,
    )
    seconds = time.monotonic() - started
    with (root / "load_stats.csv").open() as rows:
        stats = {row["Name"]: row for row in csv.DictReader(rows)}
    return stats, json.loads(tally.read_text()), seconds


def _check(cloud: LocalCloud, stats: dict[str, Any], tally: dict[str, Any]) -> dict[str, tuple[bool, str]]:
    url = cloud.api_url
    errors = int(stats["Aggregated"]["Failure Count"])
    shards = {n: _value(url, n, consistent="true") for n in COUNTERS}
    rollup: dict[str, int] = {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and rollup != tally["increments"]:
        rollup = {n: _value(url, n, source="rollup") for n in COUNTERS}
        time.sleep(0.5)
    unreadable = [
        locker_id
        for locker_id, body in tally["lockers"].items()
        if requests.get(f"{url}/lockers/{locker_id}", timeout=60).json().get("name") != body["name"]
    ]
    accepted = sum(tally["increments"].values())
    return {
        "0 errors": (errors == 0, f"{errors} failed requests"),
        "counters == accepted increments (shards)": (
            shards == tally["increments"],
            f"{accepted:,} increments",
        ),
        "counters == accepted increments (roll-up)": (rollup == tally["increments"], f"{rollup}"),
        "every written locker readable": (
            not unreadable,
            f"{len(tally['lockers']):,} written, {len(unreadable)} not",
        ),
    }


def _value(url: str, name: str, **query: str) -> int:
    return int(requests.get(f"{url}/counters/{name}", params=query, timeout=60).json()["value"])


def _report(stats: dict[str, Any], checks: dict[str, tuple[bool, str]], args: Any, seconds: float) -> None:
    print(
        f"load: {args.users} users, at most {args.requests:,} requests or {args.seconds} s: {seconds:.0f} s"
    )
    print(
        f"{'route':36} {'requests':>9} {'errors':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'req/s':>7}"
    )
    rows = []
    for name, row in stats.items():
        figures = {k: row[k] for k in ("Request Count", "Failure Count", "50%", "95%", "99%", "Requests/s")}
        rows.append({"route": name, **figures})
        print(
            f"{name:36} {int(row['Request Count']):>9,} {int(row['Failure Count']):>7} {row['50%']:>7} "
            f"{row['95%']:>7} {row['99%']:>7} {float(row['Requests/s']):>7.1f}"
        )
    for check, (ok, detail) in checks.items():
        print(f"{'PASS' if ok else 'FAIL'}  {check}: {detail}")
    write_results(
        RESULTS,
        {
            "users": args.users,
            "max_requests": args.requests,
            "seconds": seconds,
            "routes": rows,
            "checks": {k: v[0] for k, v in checks.items()},
        },
    )


if __name__ == "__main__":
    sys.exit(main())
