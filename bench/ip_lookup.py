"""Benchmark: the IP range loader and lookups on DynamoDB Local, each beside its alternative.

    .venv/bin/python bench/ip_lookup.py [--ranges 100000] [--baseline-items 5000] [--lookups 20000]

* loading: `tatami load-ip`'s loader (shuffled, 25-item batches, 8 threads, then a count per partition)
  against seed 003's single-threaded loop of one `put_item` per row in file order (boto3's resource
  API, as the seed's code uses it; and the same loop on the low-level client), on fresh tables;
* lookups: 4 client threads running the lookup function's own code (parse, cached pointer, one
  Query) against an in-memory bisect over the same ranges (the floor), on the same addresses;
* RCU per lookup, from ReturnConsumedCapacity on every Query (seed 003: 0.5);
* CPU per item of this process and of DynamoDB Local's JVM: on a 2-core machine the loader is bound
  by CPU, not by partitions as on AWS, and these columns show where it goes; items per CPU-second
  (both processes together) compares the contenders even when other work shares the machine.

The dataset is synthetic (tests and benchmarks only): IPv4 ranges over the whole space, IPv6 ranges
in 200 random /24s, gaps and adjacent ranges mixed. Writes bench/results/ip_lookup.json.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "lambdas")]

import argparse  # noqa: E402 - after the path fix above
import bisect  # noqa: E402
import csv  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from concurrent.futures import ThreadPoolExecutor  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from typing import Any  # noqa: E402

from _results import write_results  # noqa: E402
from boto3.dynamodb.types import TypeDeserializer  # noqa: E402

from tatami.ip_loader.clients import loader_client  # noqa: E402
from tatami.ip_loader.load import LoadOptions, load, prepare  # noqa: E402
from tatami.ip_loader.store import RangesStore  # noqa: E402
from tatami.local.engines import processes as engines  # noqa: E402
from tatami.target import Target  # noqa: E402
from tatami_functions.ip_lookup.addresses import V4, V6, Address, parse_address  # noqa: E402
from tatami_functions.ip_lookup.repository import RangesRepository  # noqa: E402
from tatami_functions.ip_lookup.service import PointerCache, resolve  # noqa: E402
from tatami_functions.ip_lookup.table import RANGES  # noqa: E402

RESULTS = REPO / "bench" / "results" / "ip_lookup.json"
THREADS = 4


def synthetic_rows(count: int, rng: random.Random) -> list[tuple[int, int, int]]:
    """(family, start, end): 80% IPv4 over 1.0.0.0-223.255.255.255, 20% IPv6 within 200 /24s."""
    v4 = sorted(rng.sample(range(1 << 24, 224 << 24), count * 4 // 5))
    bases = sorted(rng.sample(range(0x200000, 0x2FFFFF), 200))
    v6 = sorted({(rng.choice(bases) << 104) | (rng.getrandbits(56) << 48) for _ in range(count - len(v4))})
    rows = []
    for family, starts, host_bits in ((V4, v4, 24), (V6, v6, 104)):
        for start, following in zip(starts, [*starts[1:], None], strict=True):
            limit = ((start >> host_bits) + 1 << host_bits) - 1  # IPv6 rows stay within their /24
            ceiling = limit if following is None else min(following - 1, limit if family == V6 else following)
            end = ceiling if rng.random() < 0.5 else rng.randint(start, ceiling)  # adjacent, or a gap after
            rows.append((family, start, end))
    return rows


def write_csv(rows: list[tuple[int, int, int]], path: Path, rng: random.Random) -> None:
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["start", "end", "asn", "organization", "country"])
        for family, start, end in rows:
            asn, country = rng.randint(1, 400_000), rng.choice(["JP", "US", "DE", "BR", "IN", "AU", "FR"])
            first, last = Address(family, start), Address(family, end)
            writer.writerow([first, last, asn, f"Example Org {asn}", country])


def create_table(client: Any, name: str) -> str:
    client.create_table(**RANGES.create_table_request(name))
    return name


@contextmanager
def meter(jvm_pid: int, into: dict[str, Any], items: int) -> Iterator[None]:
    """Wall seconds, items/s, and CPU ms per item of this process and of DynamoDB Local's JVM."""

    def jvm_seconds() -> float:
        fields = Path(f"/proc/{jvm_pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    wall, cpu, jvm = time.perf_counter(), time.process_time(), jvm_seconds()
    yield
    into["seconds"] = time.perf_counter() - wall
    into |= {"items": items, "items_per_second": items / into["seconds"]}
    into["python_cpu_ms_per_item"] = (time.process_time() - cpu) * 1000 / items
    into["dynamodb_local_cpu_ms_per_item"] = (jvm_seconds() - jvm) * 1000 / items


def seed_loop(target: Target, items: list[dict[str, Any]], jvm_pid: int, resource: bool) -> dict[str, Any]:
    """Seed 003's first loader: in file order, one put_item per item, one thread."""
    client, name = target.client("dynamodb"), f"sequential-{'resource' if resource else 'client'}"
    if name not in client.list_tables()["TableNames"]:
        create_table(client, name)
    table, decode = target.resource("dynamodb").Table(name), TypeDeserializer().deserialize
    native = [{k: decode(v) for k, v in item.items()} for item in items]  # what a CSV loop would build
    result: dict[str, Any] = {"wcu": 0.0}
    with meter(jvm_pid, result, len(items)):
        for item, plain in zip(items, native, strict=True):
            reply = (
                table.put_item(Item=plain, ReturnConsumedCapacity="TOTAL")
                if resource
                else client.put_item(TableName=name, Item=item, ReturnConsumedCapacity="TOTAL")
            )
            result["wcu"] += reply["ConsumedCapacity"]["CapacityUnits"]
    return result


def warm_up(target: Target, items: list[dict[str, Any]], jvm_pid: int) -> None:
    """DynamoDB Local's JIT compiles for several seconds: run each kind of write until its JVM cost per
    item has settled, so that no contender pays for compilation (the first one timed would)."""
    for resource in (False, True, False):
        seed_loop(target, items[:2000], jvm_pid, resource)
    client = target.client("dynamodb")
    table = create_table(client, "warm-up-batches")
    batches = [[{"PutRequest": {"Item": it}} for it in items[i : i + 25]] for i in range(0, len(items), 25)]
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda batch: client.batch_write_item(RequestItems={table: batch}), batches))


class RecordingRepository(RangesRepository):
    """The function's repository, recording the read capacity every Query consumed."""

    consumed: list[float]

    def find(self, pointer: Any, address: Address) -> Any:
        found, units = super().find(pointer, address)
        self.consumed.append(units)
        return found, units


def timed(lookup: Callable[[str], object], texts: list[str]) -> dict[str, float]:
    """p50/p99 ms per call and calls per second, with THREADS threads sharing the addresses."""

    def run(share: list[str]) -> list[float]:
        latencies = []
        for text in share:
            began = time.perf_counter()
            lookup(text)
            latencies.append(time.perf_counter() - began)
        return latencies

    started = time.perf_counter()
    with ThreadPoolExecutor(THREADS) as pool:
        shares = pool.map(run, [texts[i::THREADS] for i in range(THREADS)])
        ordered = sorted(seconds for share in shares for seconds in share)
    seconds = time.perf_counter() - started
    return {
        "p50_ms": ordered[len(ordered) // 2] * 1000,
        "p99_ms": ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)] * 1000,
        "lookups_per_second": len(ordered) / seconds,
    }


def bisect_floor(rows: list[tuple[int, int, int]]) -> Callable[[str], bool]:
    starts = {f: [s for family, s, _ in rows if family == f] for f in (V4, V6)}
    ends = {f: [e for family, _, e in rows if family == f] for f in (V4, V6)}

    def lookup(text: str) -> bool:
        address = parse_address(text, map_ipv4=True)
        index = bisect.bisect_right(starts[address.family], address.value) - 1
        return index >= 0 and address.value <= ends[address.family][index]

    return lookup


def lookup_texts(rows: list[tuple[int, int, int]], count: int, rng: random.Random) -> list[str]:
    """90% addresses inside a random range, 10% near one (often in a gap)."""
    texts = []
    for _ in range(count):
        family, start, end = rng.choice(rows)
        value = rng.randint(start, end) if rng.random() < 0.9 else start ^ rng.getrandbits(16)
        texts.append(str(Address(family, value)))
    return texts


Rows = list[tuple[int, int, int]]


def lookups(target: Target, rows: Rows, count: int, rng: random.Random) -> dict[str, Any]:
    table = RecordingRepository("loaded", target.client("dynamodb"))
    cache, texts = PointerCache(table, 30.0), lookup_texts(rows, count, rng)
    table.consumed = []
    timed(lambda text: resolve([text], cache), texts[:500])  # warm the connection pool and the JIT
    table.consumed = []
    dynamodb = timed(lambda text: resolve([text], cache), texts)
    units = table.consumed
    floor = timed(bisect_floor(rows), texts)
    return {
        "lookups": {
            "threads": THREADS,
            "count": count,
            "dynamodb_local": dynamodb,
            "in_memory_bisect": floor,
        },
        "rcu_per_lookup": {"min": min(units), "max": max(units), "queries": len(units)},
    }


def measure(args: argparse.Namespace, target: Target, jvm_pid: int, folder: Path) -> dict[str, Any]:
    rng = random.Random(20230130)  # the seed article's date: the same dataset every run
    rows = synthetic_rows(args.ranges, rng)
    write_csv(rows, folder / "ranges.csv", rng)
    began = time.perf_counter()
    prepared = prepare([folder / "ranges.csv"])
    shape = prepared.summary().__dict__
    planned = {k: shape[k] for k in ("rows", "items", "gaps", "splits", "partitions")}
    planned["planned_seconds"] = time.perf_counter() - began
    in_file_order = sorted(prepared.plan.pieces, key=lambda p: (p.prefix.family, p.first))
    baseline = [piece.item(1) for piece in in_file_order[: args.baseline_items]]
    warm_up(target, baseline, jvm_pid)
    loading = {
        "seed_loop_resource_put_item": seed_loop(target, baseline, jvm_pid, resource=True),
        "seed_loop_client_put_item": seed_loop(target, baseline, jvm_pid, resource=False),
    }
    client = target.client("dynamodb")
    store = RangesStore(loader_client(target), create_table(client, "loaded"))  # as `tatami load-ip` does
    loader: dict[str, Any] = {"workers": args.workers}
    with meter(jvm_pid, loader, len(prepared.plan.pieces)):
        summary = load(prepared, store, LoadOptions(grace=0, workers=args.workers))
    loading["load_ip"] = loader | {
        "wcu": summary.wcu,
        "write_phase_items_per_second": summary.items_per_second,
    }
    return {"dataset": planned, "loading": loading, **lookups(target, rows, args.lookups, rng)}


def report(result: dict[str, Any]) -> str:
    d, loading, lk, rcu = (result[k] for k in ("dataset", "loading", "lookups", "rcu_per_lookup"))
    names = ("seed_loop_resource_put_item", "seed_loop_client_put_item", "load_ip")
    seed, client, ours = (loading[name] for name in names)
    lines = [
        f"dataset: {d['rows']:,} ranges -> {d['items']:,} items ({d['gaps']:,} gaps, {d['splits']:,} splits) "
        f"in {d['partitions']:,} partitions; read and planned in {d['planned_seconds']:.1f} s",
        "",
        f"{'loading':<52}{'items':>9}{'seconds':>9}{'items/s':>9}{'WCU':>9}{'cpu ms/item: py':>17}{'ddb':>6}"
        f"{'items/cpu-s':>13}",
    ]
    contenders = [
        ("  seed 003 loop: boto3 resource put_item, 1 thread", seed),
        ("  the same loop on the low-level client", client),
        (f"  tatami load-ip: shuffled batches, {ours['workers']} threads", ours),
    ]
    for label, row in contenders:
        lines.append(
            f"{label:<52}{row['items']:>9,}{row['seconds']:>9.1f}{row['items_per_second']:>9,.0f}"
            f"{row['wcu']:>9,.0f}{row['python_cpu_ms_per_item']:>17.2f}{row['dynamodb_local_cpu_ms_per_item']:>6.2f}"
            f"{1000 / (row['python_cpu_ms_per_item'] + row['dynamodb_local_cpu_ms_per_item']):>13,.0f}"
        )
    heading = f"lookups ({lk['threads']} client threads, {lk['count']:,} lookups)"
    versus_seed = ours["items_per_second"] / seed["items_per_second"]
    versus_client = ours["items_per_second"] / client["items_per_second"]
    lines += [
        f"  load-ip (timed to the switch, its count per partition included) vs the seed loop: "
        f"{versus_seed:.1f}x; vs the client loop: {versus_client:.1f}x; "
        f"write phase alone {ours['write_phase_items_per_second']:,.0f} items/s",
        "",
        f"{heading:<52}{'p50 ms':>9}{'p99 ms':>9}{'lookups/s':>11}",
    ]
    for label, key in (
        ("  DynamoDB Local: Query sk <= ip, Limit 1", "dynamodb_local"),
        ("  in-memory bisect (the floor)", "in_memory_bisect"),
    ):
        s = lk[key]
        lines.append(f"{label:<52}{s['p50_ms']:>9.3f}{s['p99_ms']:>9.3f}{s['lookups_per_second']:>11,.0f}")
    exact, fast = rcu["min"] == rcu["max"] == 0.5, versus_seed >= 10
    lines += [
        "",
        f"RCU per lookup (ReturnConsumedCapacity, {rcu['queries']:,} queries): "
        f"min {rcu['min']} max {rcu['max']}",
        f"goals: loader >= 10x the seed's loop: {versus_seed:.1f}x {'OK' if fast else 'MISSED'}; "
        f"RCU per lookup = 0.5: {'OK' if exact else 'MISSED'}",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--ranges", type=int, default=100_000)
    parser.add_argument("--baseline-items", type=int, default=5_000, help="items for each put_item loop")
    parser.add_argument("--lookups", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=8, help="loader threads (tatami load-ip --workers)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        engine = engines.start_dynamodb_local(engines.free_port(), Path(folder) / "ddb.log")
        try:
            assert engine.process is not None
            target = Target("bench", {}, engine.endpoint, None)
            result = measure(args, target, engine.process.pid, Path(folder))
        finally:
            engine.stop()
    machine = f"Python {platform.python_version()}, {os.cpu_count()} CPUs, DynamoDB Local in memory"
    print(f"IP lookup benchmark: {machine}, load average {os.getloadavg()[0]:.1f}\n{report(result)}")
    write_results(RESULTS, {"machine": machine, **result})


if __name__ == "__main__":
    main()
