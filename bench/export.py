"""Benchmark: the local export (parallel scan -> S3 layout) and DuckDB over it, beside a Scan in Python.

    python bench/export.py [--items 100000] [--segments 4]

Starts its own DynamoDB Local and moto server, loads `--items` device logs (the devices model's own
item shape), exports them through the local cloud's export API (ExportTableToPointInTime answered by
`tatami.local.engines.exports`, items/s), then answers "device logs per day and
level" twice: DuckDB over the export (the named query, first download included, then warm) and a
parallel Scan of the table aggregated in Python. Checks both answers agree, prints a table and
writes bench/results/export.json.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "lambdas")]

from _results import machine, write_results  # noqa: E402

from tatami.local.engines import exports as local_exports  # noqa: E402
from tatami.local.engines import processes as engines  # noqa: E402
from tatami.olap import duck  # noqa: E402
from tatami.olap.exports import fetch, latest_summary  # noqa: E402
from tatami.scan import parallel_scan  # noqa: E402
from tatami.target import Target  # noqa: E402
from tatami_functions.devices.repository import to_item  # noqa: E402
from tatami_functions.devices.schemas import DeviceLog, Level  # noqa: E402
from tatami_functions.olap.catalog import named_queries  # noqa: E402
from tatami_functions.olap.exports import TableExports  # noqa: E402
from tatami_functions.olap.layout import table_prefix  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "export.json"
TABLE, BUCKET = "bench-device-logs", "bench-olap"
LEVELS = [Level.DEBUG] * 3 + [Level.INFO] * 5 + [Level.WARNING] * 2 + [Level.ERROR, Level.CRITICAL]


def logs(count: int, seed: int = 4) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    items = []
    for number in range(count):
        day, second = rng.randrange(30), rng.randrange(86_400)
        clock = f"{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}.{number % 1000:03d}"
        created = f"2024-05-{day + 1:02d}T{clock}Z"
        log = DeviceLog(
            f"dev-{rng.randrange(1000):04d}",
            rng.choice(LEVELS),
            created,
            f"message {number}",
            4_102_444_800,
            number % 10,
        )
        items.append(to_item(log))
    return items


def load(client: Any, items: list[dict[str, Any]], workers: int = 8) -> float:
    started = time.perf_counter()
    batches = [items[i : i + 25] for i in range(0, len(items), 25)]

    def write(batch: list[dict[str, Any]]) -> None:
        request = {TABLE: [{"PutRequest": {"Item": item}} for item in batch]}
        while request:
            request = client.batch_write_item(RequestItems=request).get("UnprocessedItems") or {}

    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(write, batches))
    return time.perf_counter() - started


def scan_aggregate(client: Any, segments: int) -> tuple[float, list[tuple[Any, ...]]]:
    """Parallel Scan of the table, counted in Python: logs and distinct devices per (day, level)."""
    counts: Counter[tuple[str, str]] = Counter()
    devices: dict[tuple[str, str], set[str]] = {}
    lock = threading.Lock()

    def page(_segment: int, items: list[dict[str, Any]]) -> None:
        with lock:
            for item in items:
                key = (item["created_at"]["S"][:10], item["level"]["S"])
                counts[key] += 1
                devices.setdefault(key, set()).add(item["device_id"]["S"])

    started = time.perf_counter()
    parallel_scan(client, TABLE, segments, page, progress=False)
    rows = [(day, level, counts[(day, level)], len(devices[(day, level)])) for day, level in sorted(counts)]
    return time.perf_counter() - started, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--segments", type=int, default=4)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-export-"))
    dynamodb_local = engines.start_dynamodb_local(engines.free_port(), work / "ddb.log")
    moto = engines.start_moto(engines.free_port(), work / "moto.log")
    try:
        result = run(
            Target("bench", {}, dynamodb_local.endpoint, moto.endpoint), args.items, args.segments, work
        )
    finally:
        moto.stop()
        dynamodb_local.stop()
    report(result)


def run(target: Target, count: int, segments: int, work: Path) -> dict[str, Any]:
    dynamodb, s3 = target.client("dynamodb"), target.client("s3")
    keys = [
        {"AttributeName": "device_id", "KeyType": "HASH"},
        {"AttributeName": "level_with_created_at", "KeyType": "RANGE"},
    ]
    definitions = [{"AttributeName": k["AttributeName"], "AttributeType": "S"} for k in keys]
    arn = dynamodb.create_table(
        TableName=TABLE, KeySchema=keys, AttributeDefinitions=definitions, BillingMode="PAY_PER_REQUEST"
    )["TableDescription"]["TableArn"]
    s3.create_bucket(Bucket=BUCKET)
    load_seconds = load(dynamodb, logs(count))
    exports = TableExports(local_exports.attach(target.client("dynamodb"), target.client, segments), s3)
    started = time.perf_counter()
    exported = exports.start_full(arn, BUCKET, table_prefix("exports", "device_logs"), "bench")
    export_seconds = time.perf_counter() - started
    assert exported.item_count == count, exported
    sql = named_queries()["device_log_levels_per_day"].sql
    started = time.perf_counter()
    summary = latest_summary(s3, BUCKET, table_prefix("exports", "device_logs"))
    assert summary is not None
    files = fetch(s3, BUCKET, "device_logs", summary, work / "cache")
    fetch_seconds = time.perf_counter() - started
    started = time.perf_counter()
    connection = duck.connect({"device_logs": files.paths})  # parses the export once
    load_into_duckdb = time.perf_counter() - started
    timings: list[float] = []
    rows: list[tuple[Any, ...]] = []
    for _ in range(5):
        started = time.perf_counter()
        _, rows = duck.run(connection, sql)
        timings.append(time.perf_counter() - started)
    scan_seconds, scan_rows = scan_aggregate(dynamodb, segments)
    assert rows == scan_rows, "DuckDB and the Python scan must give the same answer"
    return {
        "benchmark": "export",
        "machine": machine(),
        "items": count,
        "segments": segments,
        "data_files": len(files.paths),
        "load_items_per_s": round(count / load_seconds),
        "export_seconds": round(export_seconds, 2),
        "export_items_per_s": round(count / export_seconds),
        "duckdb_download_seconds": round(fetch_seconds, 3),
        "duckdb_load_seconds": round(load_into_duckdb, 3),
        "duckdb_query_seconds": round(sorted(timings)[2], 4),
        "duckdb_first_answer_seconds": round(fetch_seconds + load_into_duckdb + timings[0], 3),
        "scan_aggregate_seconds": round(scan_seconds, 3),
        "answer_rows": len(rows),
    }


def _rows(result: dict[str, Any]) -> list[tuple[str, float]]:
    return [
        ("Scan + aggregate in Python (parallel scan of the table)", result["scan_aggregate_seconds"]),
        ("DuckDB: first answer (download + load + query)", result["duckdb_first_answer_seconds"]),
        ("DuckDB: each further query (median of 5)", result["duckdb_query_seconds"]),
    ]


def report(result: dict[str, Any]) -> None:
    scan = result["scan_aggregate_seconds"]
    lines = [
        f"export benchmark: {result['items']:,} device logs on DynamoDB Local, {result['machine']}",
        f"  local export (parallel scan, {result['segments']} segments -> {result['data_files']} gzip files "
        f"in moto S3): {result['export_seconds']:.2f} s = {result['export_items_per_s']:,} items/s",
        "",
        f"  'device logs per day and level' ({result['answer_rows']} rows, same answer both ways)",
        *(f"  {label:<56} {value:>9.4f} s" for label, value in _rows(result)),
        f"  scan / DuckDB query: {scan / result['duckdb_query_seconds']:,.0f}x; "
        f"scan / first answer: {scan / result['duckdb_first_answer_seconds']:.1f}x",
    ]
    print("\n".join(lines))
    write_results(RESULTS, result)


if __name__ == "__main__":
    main()
