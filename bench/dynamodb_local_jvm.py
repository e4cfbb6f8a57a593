"""What DynamoDB Local's JVM options cost: the CPU it spends starting and serving the same calls.

Starts DynamoDB Local (in memory) with each option set, times its start, then makes the same calls
from one client (a table with a stream, `--puts` items of 200 bytes over 50 partition keys, `--queries`
queries of 20 items) and leaves it idle for `--idle` seconds. CPU seconds are the JVM's own (user +
system, read from /proc): they are what a laptop or a two-core CI machine pays, and unlike the wall
clock they hardly move with other load. The default set is `JVM_OPTIONS`
(tatami/local/engines/dynamodb_local.py); `jvm-default` is the JVM's own choice (tiered C1 + C2, G1).

    .venv/bin/python bench/dynamodb_local_jvm.py [--runs 3] [--puts 2000] [--queries 500] [--idle 20]

Prints a line per run and the medians per option set; writes bench/results/dynamodb_local_jvm.json.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import psutil
from _results import REPO, machine, write_results

from tatami.local.engines import processes as engines
from tatami.local.engines.dynamodb_local import JVM_OPTIONS

RESULTS = REPO / "bench" / "results" / "dynamodb_local_jvm.json"
OPTION_SETS = {"tatami": JVM_OPTIONS, "jvm-default": ()}
TABLE = "bench-jvm"


def run_once(options: tuple[str, ...], args: argparse.Namespace) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        started = time.monotonic()
        log = Path(folder) / "ddb.log"
        engine = engines.start_dynamodb_local(engines.free_port(), log, jvm_options=options)
        try:
            return measure(engine, time.monotonic() - started, args)
        finally:
            engine.stop()


def measure(engine: engines.Engine, start_s: float, args: argparse.Namespace) -> dict[str, float]:
    """The JVM's CPU seconds: to start, for the calls, and idle after them (it runs no children)."""
    jvm = psutil.Process(engine.process.pid)

    def cpu() -> float:
        times = jvm.cpu_times()
        return float(times.user + times.system)

    at_start = cpu()
    client = engines.dynamodb_client(engine.endpoint)
    client.create_table(
        TableName=TABLE,
        BillingMode="PAY_PER_REQUEST",
        KeySchema=[
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ],
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "S"},
        ],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    )
    calls_started = time.monotonic()
    for n in range(args.puts):
        item = {"pk": {"S": f"p{n % 50}"}, "sk": {"S": f"s{n:06d}"}, "body": {"S": "x" * 200}}
        client.put_item(TableName=TABLE, Item=item)
    for n in range(args.queries):
        client.query(
            TableName=TABLE,
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": f"p{n % 50}"}},
            Limit=20,
        )
    calls_s = time.monotonic() - calls_started
    after_calls = cpu()
    time.sleep(args.idle)
    return {
        "start_s": start_s,
        "start_cpu_s": at_start,
        "calls_s": calls_s,
        "calls_cpu_s": after_calls - at_start,
        "idle_cpu_s": cpu() - after_calls,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--puts", type=int, default=2000)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--idle", type=float, default=20.0, help="seconds left idle after the calls")
    args = parser.parse_args()
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in OPTION_SETS}
    for run in range(args.runs):  # interleaved, so a change in the machine's load hits both sets alike
        for name, options in OPTION_SETS.items():
            figures = run_once(options, args)
            runs[name].append(figures)
            print(f"run {run + 1} {name:12s} " + "  ".join(f"{k} {v:6.2f}" for k, v in figures.items()))
    medians = {name: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for name, rs in runs.items()}
    workload = f"{args.puts} puts, {args.queries} queries, {args.idle:.0f} s idle"
    print(f"\nmedians of {args.runs} runs ({workload}):")
    for name, figures in medians.items():
        print(f"  {name:12s} " + "  ".join(f"{k} {v:6.2f}" for k, v in figures.items()))
    write_results(
        RESULTS,
        {
            "machine": machine(),
            "options": {name: list(options) for name, options in OPTION_SETS.items()},
            "workload": {"puts": args.puts, "queries": args.queries, "idle_s": args.idle},
            "runs": runs,
            "medians": medians,
        },
    )


if __name__ == "__main__":
    main()
