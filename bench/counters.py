"""Benchmark: increments through the counters handler with 1 shard and with N shards, on DynamoDB Local.

    python bench/counters.py [--shards N] [--increments K] [--workers W]

Each worker is a process (one Lambda execution environment each) calling the API handler with API
Gateway events; DynamoDB Local serves the tables. DynamoDB Local does not enforce the per-partition
limit, so locally both designs are bound by this machine; what each design would get on DynamoDB
is printed as a calculation from the documented 1,000 WCU per partition key and the write units
each increment consumed here (ReturnConsumedCapacity, computed by AWS's rules). Prints a table and
writes bench/results/counters.json.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "lambdas")]

from _results import machine, write_results  # noqa: E402

from tatami.local.engines import processes as engines  # noqa: E402
from tatami_functions.common.clients import API_CALLS  # noqa: E402
from tatami_functions.counters.settings import CountersSettings  # noqa: E402
from tatami_functions.counters.sharding import PARTITION_WCU  # noqa: E402
from tatami_functions.counters.table import COUNTERS, IDEMPOTENCY, SHARDS  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "counters.json"
SHARDS_TABLE = "bench-shards"
TABLES = CountersSettings.environment(
    shards_table=SHARDS_TABLE, counters_table="bench-counters", idempotency_table="bench-idempotency"
)
SCHEMAS = {"bench-shards": SHARDS, "bench-counters": COUNTERS, "bench-idempotency": IDEMPOTENCY}


class Context:
    """What Powertools reads of Lambda's context object."""

    function_name, memory_limit_in_mb, aws_request_id = "bench-counters", 512, "bench"
    invoked_function_arn = "arn:aws:lambda:ddblocal:000000000000:function:bench-counters"

    def get_remaining_time_in_millis(self) -> int:
        return 10_000


def call(method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """One API Gateway (REST v1) proxy event through the handler, as Lambda would invoke it."""
    from tatami_functions.counters.handler import api

    headers = headers or {}
    event = {
        "resource": path,
        "path": path,
        "httpMethod": method,
        "headers": headers,
        "multiValueHeaders": {k: [v] for k, v in headers.items()},
        "queryStringParameters": None,
        "body": None if body is None else json.dumps(body),
        "isBase64Encoded": False,
        "requestContext": {"requestId": uuid.uuid4().hex, "stage": "v1", "identity": {}},
    }
    response = api(event, Context())
    return response["statusCode"], json.loads(response["body"])


def environment(endpoint: str) -> dict[str, str]:
    return {
        **TABLES,
        "AWS_ENDPOINT_URL_DYNAMODB": endpoint,
        "AWS_DEFAULT_REGION": "ddblocal",
        "AWS_ACCESS_KEY_ID": engines.LOCAL_CREDENTIALS["aws_access_key_id"],
        "AWS_SECRET_ACCESS_KEY": engines.LOCAL_CREDENTIALS["aws_secret_access_key"],
        "POWERTOOLS_SERVICE_NAME": "counters",
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_LOG_LEVEL": "WARNING",
    }


def dynamodb() -> Any:
    """The client the handler's repositories share in this process."""
    from tatami_functions.common.clients import aws_client

    return aws_client("dynamodb", API_CALLS)


def create_tables() -> None:
    for table, schema in SCHEMAS.items():
        dynamodb().create_table(**schema.create_table_request(table))


def _warm() -> None:
    call("GET", "/counters/warm-up")  # imports, first client and connection: not timed


def _calls(task: tuple[str, str, int, bool]) -> tuple[float, float, int]:
    method, path, count, keyed = task
    started, ok = time.perf_counter(), 0
    for _ in range(count):
        headers = {"Idempotency-Key": uuid.uuid4().hex} if keyed else None
        ok += call(method, path, {"by": 1} if method == "POST" else None, headers)[0] == 200
    return started, time.perf_counter(), ok


def rate(pool: Any, method: str, path: str, count: int, workers: int, keyed: bool = False) -> float:
    """Calls per second over the span from the first worker's start to the last one's end."""
    spans = pool.map(_calls, [(method, path, count // workers, keyed)] * workers)
    done = sum(ok for _, _, ok in spans)
    assert done == count // workers * workers, "every call must answer 200"
    return float(done / (max(end for _, end, _ in spans) - min(start for start, _, _ in spans)))


def consumed_read_units(name: str, shards: int) -> float:
    """What summing the shards costs: BatchGetItem of every shard, eventually consistent."""
    from tatami_functions.counters.sharding import shard_key

    total = 0.0
    for start in range(0, shards, 100):
        keys = [
            {SHARDS.partition_key.name: {"S": shard_key(name, n)}}
            for n in range(start, min(start + 100, shards))
        ]
        response = dynamodb().batch_get_item(
            RequestItems={SHARDS_TABLE: {"Keys": keys}}, ReturnConsumedCapacity="TOTAL"
        )
        total += sum(c.get("CapacityUnits", 0.0) for c in response.get("ConsumedCapacity", []))
    return total


def _key(keyed: bool) -> dict[str, str] | None:
    return {"Idempotency-Key": uuid.uuid4().hex} if keyed else None


def write_units(action: Any) -> float:
    """The write units DynamoDB Local reports for what `action` sends (ReturnConsumedCapacity asked
    of every write call; computed by AWS's rules: a transaction's items count twice)."""
    consumed: list[float] = []

    def ask(params: dict[str, Any], **_: Any) -> None:
        params["ReturnConsumedCapacity"] = "TOTAL"

    def note(parsed: dict[str, Any], **_: Any) -> None:
        capacity = parsed.get("ConsumedCapacity", [])
        for entry in capacity if isinstance(capacity, list) else [capacity]:
            consumed.append(float(entry.get("CapacityUnits", 0.0)))

    events = dynamodb().meta.events
    writes = ("UpdateItem", "PutItem", "TransactWriteItems")
    for operation in writes:
        events.register(f"before-parameter-build.dynamodb.{operation}", ask, unique_id=f"ask-{operation}")
        events.register(f"after-call.dynamodb.{operation}", note, unique_id=f"note-{operation}")
    try:
        action()
    finally:
        for operation in writes:
            events.unregister(f"before-parameter-build.dynamodb.{operation}", unique_id=f"ask-{operation}")
            events.unregister(f"after-call.dynamodb.{operation}", unique_id=f"note-{operation}")
    return sum(consumed)


def run_design(
    pool: Any, label: str, shards: int, args: argparse.Namespace, keyed: bool = False
) -> dict[str, Any]:
    name = f"bench-{uuid.uuid4().hex[:8]}"
    status, created = call(
        "PUT", f"/counters/{name}", {"target_wcu": shards * PARTITION_WCU, "safety_factor": 1}
    )
    assert status == 201 and created["shards"] == shards, created
    path = f"/counters/{name}"
    increments_per_s = rate(pool, "POST", f"{path}/increments", args.increments, args.workers, keyed)
    reads_per_s = rate(pool, "GET", path, args.reads, args.workers)
    expected = args.increments // args.workers * args.workers
    assert call("GET", path)[1]["value"] == expected, "every increment counted exactly once"
    wcu = write_units(lambda: call("POST", f"{path}/increments", {"by": 1}, _key(keyed)))  # one more
    return {
        "design": label,
        "shards": shards,
        "idempotency_key": keyed,
        "increments_per_s_local": round(increments_per_s, 1),
        "wcu_per_increment": wcu,
        "ceiling_increments_per_s_on_dynamodb": shards * PARTITION_WCU / wcu,
        "reads_per_s_local": round(reads_per_s, 1),
        "rcu_per_read": consumed_read_units(name, shards),
    }


def print_table(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    print(
        f"\ncounters through the API handler on DynamoDB Local: {args.workers} worker processes, "
        f"{args.increments:,} increments and {args.reads:,} reads per design\n"
    )
    header = ("design", "increments/s here", "WCU/incr", "ceiling on DynamoDB*", "reads/s here", "RCU/read")
    print(f"{header[0]:<22}{header[1]:>18}{header[2]:>10}{header[3]:>22}{header[4]:>14}{header[5]:>10}")
    for row in rows:
        ceiling = f"{row['ceiling_increments_per_s_on_dynamodb']:,.0f}/s"
        print(
            f"{row['design']:<22}{row['increments_per_s_local']:>18,.0f}{row['wcu_per_increment']:>10.1f}"
            f"{ceiling:>22}{row['reads_per_s_local']:>14,.0f}{row['rcu_per_read']:>10.1f}"
        )
    one, many = rows[0], rows[1]
    ratio = many["increments_per_s_local"] / one["increments_per_s_local"]
    ceiling = one["ceiling_increments_per_s_on_dynamodb"]
    notes = [
        f"* shards x {PARTITION_WCU:,} WCU per partition key / WCU per increment: a calculation,",
        f"  not a measurement. Here {many['shards']} shards ran at {ratio:.2f}x the 1-shard rate:",
        "  DynamoDB Local does not throttle a key, so this machine's CPU is the limit.",
        f"  On DynamoDB the 1-shard counter stops at {ceiling:,.0f} increments/s; table limits",
        "  (on demand: 40,000 WCU per table by default) apply on top. A keyed increment is one",
        "  transaction of the shard's ADD and the key's record: 2 items, each counted twice.",
    ]
    print("\n" + "\n".join(notes))


def save(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    document = {"benchmark": "counters", "machine": machine(), "workers": args.workers, "designs": rows}
    write_results(RESULTS, document)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shards", type=int, default=150, help="the sharded design (seed: 100 x 1.5)")
    parser.add_argument("--increments", type=int, default=2000)
    parser.add_argument("--reads", type=int, default=400)
    parser.add_argument("--workers", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        engine = engines.start_dynamodb_local(engines.free_port(), Path(tmp) / "ddb.log")
        try:
            os.environ.update(environment(engine.endpoint))
            create_tables()
            with multiprocessing.get_context("spawn").Pool(args.workers, initializer=_warm) as pool:
                rows = [
                    run_design(pool, "1 shard", 1, args),
                    run_design(pool, f"{args.shards} shards", args.shards, args),
                    run_design(pool, f"{args.shards} shards, keyed", args.shards, args, keyed=True),
                ]
        finally:
            engine.stop()
    print_table(rows, args)
    save(rows, args)


if __name__ == "__main__":
    main()
