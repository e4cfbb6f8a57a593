"""Benchmark: does the index maintainer keep up with the writes? Measured side by side in one run.

    python bench/zindex_maintainer.py [--items 20000] [--parallel 16] [--batch 500] [--no-cloud]

On DynamoDB Local (in memory), with the places table as its declaration defines it:

1. raw: the very conditional UpdateItems the maintainer makes (set the index keys if the attributes
   still hold their values), precomputed, sent by ``--parallel`` threads: this machine's ceiling;
2. maintainer: the table's stream records, read back from DynamoDB Local's stream, handed to
   ``zindex.maintainer.maintain`` ``--batch`` at a time, as one Lambda would (decoding, newest image
   per key, keys computed, writes in parallel);
   the two take turns on one table, a batch each (even batches raw, odd ones the maintainer), so that
   both meet DynamoDB Local in the same state;
3. `make run`'s sample: a local cloud from cdk.out, the cities15000 sample written as the sample
   loader writes it, indexed by the maintainer Lambda through the stream poller; the seconds to
   write it and until it is fully indexed.

Prints items/s and the two ratios issue 17 sets goals for, and writes bench/results/zindex_maintainer.json.
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from _results import write_results
from _zorder_search import REPO

from tatami.local.engines import processes as engines
from tatami.local.template.intrinsics import LOCAL_REGION
from tatami.samples.places import rows, write_places
from tatami.target import cloud_target
from tatami_functions.places.repository import PlacesRepository
from tatami_functions.places.table import PLACES
from tests.support.streams import stream_records
from tests.support.zindex import create_table
from zindex.dynamodb import CLIENT_OPTIONS, IndexRepository
from zindex.keys import index_keys
from zindex.maintainer import maintain

RESULTS = REPO / "bench" / "results" / "zindex_maintainer.json"


def client(endpoint: str, service: str = "dynamodb") -> Any:
    import boto3
    from botocore.config import Config

    return boto3.client(
        service,
        endpoint_url=endpoint,
        region_name=LOCAL_REGION,
        config=Config(**CLIENT_OPTIONS),
        **engines.LOCAL_CREDENTIALS,
    )


def fresh_table(endpoint: str, items: list[dict[str, Any]]) -> IndexRepository:
    """A new places table with a stream, the items written without index keys."""
    declaration = PLACES.named(f"bench-maint-{uuid.uuid4().hex[:8]}")
    create_table(client(endpoint), declaration, stream=True)
    write_places(PlacesRepository(declaration.table, client(endpoint)), items)
    return IndexRepository(declaration, client(endpoint))


def side_by_side(
    endpoint: str, items: list[dict[str, Any]], parallel: int, batch: int
) -> tuple[float, float]:
    """Items/s of the raw writes and of ``maintain``, on one table, taking turns a batch each.

    One table and turns, because DynamoDB Local's writes slow down as the stream records it holds
    grow (4,000 conditional writes ran at 289/s with none held, 53/s with 8,000, 24/s with 16,000)
    and differ between two tables loaded alike (1.8x, measured): anything else compares engines.
    """
    repository = fresh_table(endpoint, items)
    records = stream_records(client(endpoint), client(endpoint, "dynamodbstreams"), repository.table.table)
    seconds = {"raw": 0.0, "maintainer": 0.0}
    counted = {"raw": 0, "maintainer": 0}
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        for turn, start in enumerate(range(0, len(items), batch)):
            chunk = items[start : start + batch]
            if turn % 2 == 0:
                work = [({"id": i["id"]}, index_keys(repository.table, i), i) for i in chunk]
                started = time.perf_counter()  # the raw writes' keys are precomputed: the ceiling
                list(pool.map(lambda w: repository.write_index_keys(*w), work))
                method = "raw"
            else:
                started = time.perf_counter()
                result = maintain(repository, records[start : start + batch], parallel)
                assert result.outcomes["written"] == len(chunk), result.outcomes
                method = "maintainer"
            seconds[method] += time.perf_counter() - started
            counted[method] += len(chunk)
    return counted["raw"] / seconds["raw"], counted["maintainer"] / seconds["maintainer"]


def sample_on_a_local_cloud() -> dict[str, float]:
    """`make run`'s places sample on a local cloud of its own: seconds to write it and to index it."""
    from tatami.local.cloud import LocalCloud, LocalCloudConfig, free_ports
    from tatami.samples import places

    work = Path(tempfile.mkdtemp(prefix="bench-maint-"))
    config = LocalCloudConfig(
        cdk_out=REPO / "cdk.out",
        **free_ports(),
        work_dir=work,
        echo_logs=False,
    )
    cloud = LocalCloud(config).start()
    try:
        times = places.load_and_index(cloud_target(cloud), lambda line: print(f"  {line}"))
    finally:
        cloud.stop()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--items", type=int, default=20_000, help="items of cities15000 (20,000)")
    parser.add_argument("--parallel", type=int, default=16, help="concurrent writes (16, the maintainer's)")
    parser.add_argument("--batch", type=int, default=500, help="records per batch (500, the construct's)")
    parser.add_argument("--no-cloud", action="store_true", help="skip the local cloud's sample load")
    args = parser.parse_args()
    items = rows()[: args.items]
    engine = engines.start_dynamodb_local(engines.free_port(), Path(tempfile.mkdtemp()) / "ddb.log")
    try:
        raw_rate, maintainer_rate = side_by_side(engine.endpoint, items, args.parallel, args.batch)
    finally:
        engine.stop()
    found: dict[str, Any] = {
        "items": len(items),
        "parallel": args.parallel,
        "batch": args.batch,
        "raw_items_per_s": raw_rate,
        "maintainer_items_per_s": maintainer_rate,
    }
    found["maintainer_over_raw"] = found["maintainer_items_per_s"] / found["raw_items_per_s"]
    print(f"raw conditional UpdateItem ({args.parallel} threads): {found['raw_items_per_s']:>8,.0f} items/s")
    print(f"maintainer, batches of {args.batch}:            {found['maintainer_items_per_s']:>8,.0f} items/s")
    print(
        f"  {'MET ' if found['maintainer_over_raw'] >= 0.8 else 'MISS'} maintainer >= 0.8x raw: "
        f"{found['maintainer_over_raw']:.2f}"
    )
    if not args.no_cloud:
        sample = sample_on_a_local_cloud()
        found["sample"] = sample
        ratio = sample["indexed_seconds"] / sample["write_seconds"]
        print(
            f"`make run`'s sample: {sample['items']:,} places written in {sample['write_seconds']:.1f} s, "
            f"fully indexed {sample['indexed_seconds']:.1f} s after the first write"
        )
        print(f"  {'MET ' if ratio <= 2 else 'MISS'} fully indexed in <= 2x the write time: {ratio:.2f}")
    write_results(RESULTS, {"python": platform.python_version(), **found}, indent=1)


if __name__ == "__main__":
    main()
