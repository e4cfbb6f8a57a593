"""Seed 003's four loads, run through the model and measured as the seed measured them.

The seed loaded one IPv4 range file four times into new tables and read each load's rate off
CloudWatch's one-minute graphs: one partition key (about 1,000 writes/s), the first octet as the
key in file order (about 1,250), shuffled (about 3,600 in the one fully measured minute), and
shuffled into a table provisioned with 10,000 WCU (about 6,000, one point for the whole load).

The workload, and nothing of the model, comes from the seed:

- the data set's size: its fourth load put every write into one CloudWatch minute that read about
  6,000 writes/s, so it held about 6,000 x 60 = 360,000 items (the seed says "hundreds of
  thousands of ranges");
- its shape: the seed's file is not public, so the ranges per /8 of a public IPv4 range file
  (data/ipv4_ranges_per_8.csv) scaled to that size, with each /8's ranges in address order;
- the loader: one thread with boto3's batch writer (`clients.Loader`), never the bottleneck (the
  seed's fourth load ran faster than 6,000 items/s on that same loader);
- the measurement: per-minute points, read as the mean of the minutes the load fully covered,
  averaged over the second of the minute it started at (`measure.expected_reading`; the seed
  does not say). The fourth load is one point because it fit in one minute: its reading is the
  data set over 60 s whenever the model's load takes at most a minute, which is the model's claim
  to check (with its peak above that point, as the seed says).

The hash function is AWS's secret, and where some 200 keys land on 4 or 10 partitions moves these
figures: each load runs with several hash seeds and the model's figure is their median.
"""

from __future__ import annotations

import csv
import functools
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.limits import Limits
from tatami.capacity.reports.measure import MinutePoint, expected_reading, minute_points, reading
from tatami.capacity.reports.report import Report, simulate
from tatami.capacity.workloads.builders import FILE_ORDER, SHUFFLED, Setting, keys_workload

__all__ = ["DATASET_ITEMS", "LOADS", "LoadResult", "SeedLoad", "dataset", "run"]

PER_8 = Path(__file__).with_name("data") / "ipv4_ranges_per_8.csv"
DATASET_ITEMS = 6_000 * 60  # the fourth load's single CloudWatch point held the whole data set
ITEM_BYTES = 100  # a range item (two addresses and a little metadata): one write unit


@dataclass(frozen=True)
class SeedLoad:
    name: str
    seed_figure: float  # writes per second, as the seed read it
    one_key: bool
    order: str
    capacity: Capacity
    one_point: bool = False  # the seed saw the whole load as one CloudWatch point


LOADS = (
    SeedLoad("one partition key", 1_000, True, FILE_ORDER, Capacity.on_demand()),
    SeedLoad("first octet, file order", 1_250, False, FILE_ORDER, Capacity.on_demand()),
    SeedLoad("first octet, shuffled", 3_600, False, SHUFFLED, Capacity.on_demand()),
    SeedLoad("shuffled, provisioned 10,000 WCU", 6_000, False, SHUFFLED, Capacity.provisioned(10_000), True),
)


@dataclass(frozen=True)
class LoadResult:
    load: SeedLoad
    seed: int
    figure: float  # the model's load read as the seed read its graph
    points: list[MinutePoint]
    report: Report

    @property
    def error(self) -> float:
        return self.figure / self.load.seed_figure - 1

    @property
    def mean_rate(self) -> float:
        return self.report.totals()[4] / max(self.report.seconds, 1)


@functools.cache
def dataset(one_key: bool = False, items: int = DATASET_ITEMS) -> tuple[tuple[str, object], ...]:
    """(partition key, sort key) of every item, in file order: /8 by /8, addresses ascending.

    The sort key is the range's first address as 4 big-endian bytes, as the IP loader writes it.
    """
    with PER_8.open(newline="") as source:
        counts = {int(row["first_octet"]): int(row["ranges"]) for row in csv.DictReader(source)}
    total = sum(counts.values())
    keys: list[tuple[str, object]] = []
    for octet in sorted(counts):
        share = max(1, round(counts[octet] * items / total))
        step = (1 << 24) // share
        pk = "0" if one_key else str(octet)
        keys += [(pk, ((octet << 24) + i * step).to_bytes(4, "big")) for i in range(share)]
    return tuple(keys)


def run(load: SeedLoad, seed: int = 0, limits: Limits | None = None) -> LoadResult:
    """One seed load through the model with hash seed `seed`, measured per minute."""
    setting = Setting(load.capacity, limits or Limits(), seed)
    workload = keys_workload(load.name, dataset(load.one_key), setting, ITEM_BYTES, load.order)
    report = simulate(workload)
    per_second = report.rate()
    if load.one_point:  # a load of at most a minute can make one point: the data set over 60 s
        points = minute_points(per_second)
        figure = points[0].value if len(points) == 1 else reading(points)
    else:
        points, figure = minute_points(per_second, 30), expected_reading(per_second)
    return LoadResult(load, seed, figure, points, report)


def median_figure(results: Iterable[LoadResult]) -> float:
    return statistics.median(result.figure for result in results)


def table(results: Sequence[Sequence[LoadResult]]) -> str:
    """Seed figure, the model's median over hash seeds, the error, and each seed's run."""
    lines = [f"{'load':34} {'seed':>7} {'model':>7} {'error':>7}   per hash seed (figure / seconds)"]
    for runs in results:
        figure = median_figure(runs)
        load = runs[0].load
        each = "  ".join(f"{r.figure:,.0f}/{r.report.seconds}s" for r in runs)
        error = figure / load.seed_figure - 1
        lines.append(f"{load.name:34} {load.seed_figure:>7,.0f} {figure:>7,.0f} {error:>+7.1%}   {each}")
    return "\n".join(lines)
