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
- the loader: "a single-threaded Python script with a simple loop" (January 2023), so one thread
  with boto3's batch_writer and its retry mode of the time, legacy (standard became botocore's
  default in 2025, boto/botocore#3513: with it loads 1-3 come out a quarter slow, `ranges(...,
  mode=STANDARD)`); each call taking 2 to 4 ms (the seed's reads averaged under 2 ms; at more than
  4.2 ms a call of 25 items its fourth load could not have fit in a minute);
- the measurement: per-minute points, read as the mean of the minutes the load fully covered,
  averaged over the second of the minute it started at (`measure.expected_reading`; the seed
  does not say); beside it the plain throughput (items over the time the load took).

One comparison holds by construction, and the table says so: the fourth load's CloudWatch reading
is the data set over 60 s (6,000) for any model whose load fits in a minute, because the data set's
size came from that very point. Its plain throughput is the model's own figure.

Each load runs at every reading of what AWS leaves open (`model.choices.CORNERS`), both latencies
and several hash seeds (AWS's hash is secret; where some 200 keys land on 4 or 11 partitions moves
the figures): the model's figure is the median of those runs and the range their lowest and highest.
"""

from __future__ import annotations

import csv
import functools
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.choices import CORNERS
from tatami.capacity.reports.measure import expected_reading, minute_points
from tatami.capacity.reports.ranges import Span
from tatami.capacity.reports.report import Report
from tatami.capacity.reports.run import simulate
from tatami.capacity.workloads.builders import FILE_ORDER, SHUFFLED, Setting, keys_workload
from tatami.capacity.workloads.sdk import LEGACY, ClientConfig

__all__ = [
    "DATASET_ITEMS",
    "LATENCIES",
    "LOADS",
    "SEED_MODE",
    "LoadRanges",
    "LoadRun",
    "SeedLoad",
    "dataset",
    "ranges",
    "run",
]

PER_8 = Path(__file__).with_name("data") / "ipv4_ranges_per_8.csv"
DATASET_ITEMS = 6_000 * 60  # the fourth load's single CloudWatch point held the whole data set
ITEM_BYTES = 100  # a range item (two addresses and a little metadata): one write unit
LATENCIES = (0.002, 0.004)  # seconds a BatchWriteItem call took the seed's loader (see above)
SEED_MODE = LEGACY  # boto3's default retry mode in January 2023 (standard since 2025: boto/botocore#3513)
ONE_POINT = "by construction: the data set is this point x 60 s"


@dataclass(frozen=True)
class SeedLoad:
    name: str
    seed_figure: float  # writes per second, as the seed read it
    one_key: bool
    order: str
    capacity: Capacity
    one_point: bool = False  # the seed saw the whole load as one CloudWatch point

    @property
    def hashed(self) -> bool:
        """Whether where keys land matters (more than one partition key)."""
        return not self.one_key


LOADS = (
    SeedLoad("one partition key", 1_000, True, FILE_ORDER, Capacity.on_demand()),
    SeedLoad("first octet, file order", 1_250, False, FILE_ORDER, Capacity.on_demand()),
    SeedLoad("first octet, shuffled", 3_600, False, SHUFFLED, Capacity.on_demand()),
    SeedLoad("shuffled, provisioned 10,000 WCU", 6_000, False, SHUFFLED, Capacity.provisioned(10_000), True),
)


@dataclass(frozen=True)
class LoadRun:
    load: SeedLoad
    corner: str
    seed: int
    latency: float
    reading: float  # the model's load read as the seed read its graph
    report: Report

    @property
    def plain(self) -> float:
        """Items over the time the load took."""
        return self.report.throughput


@dataclass(frozen=True)
class LoadRanges:
    load: SeedLoad
    runs: list[LoadRun]

    @property
    def plain(self) -> Span:
        return _span([run.plain for run in self.runs])

    @property
    def reading(self) -> Span:
        return _span([run.reading for run in self.runs])


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


def run(
    load: SeedLoad,
    seed: int = 0,
    corner: str = "middle",
    latency: float = LATENCIES[-1],
    mode: str = SEED_MODE,
) -> LoadRun:
    """One seed load through the model with hash seed `seed` at one reading, measured per minute.

    `mode`: the loader's retry mode (the seed's: legacy; the others show what a client of today does).
    """
    client = ClientConfig(mode, latency=latency)
    setting = Setting(load.capacity, seed=seed, choices=CORNERS[corner], client=client)
    report = simulate(keys_workload(load.name, dataset(load.one_key), setting, ITEM_BYTES, load.order))
    per_second = report.rate()
    if load.one_point:  # a load of at most a minute makes one point: the data set over 60 s
        points = minute_points(per_second)
        reading = points[0].value if len(points) == 1 else expected_reading(per_second)
    else:
        reading = expected_reading(per_second)
    return LoadRun(load, corner, seed, latency, reading, report)


def ranges(
    load: SeedLoad,
    seeds: int = 3,
    corners: Sequence[str] = tuple(CORNERS),
    latencies: Sequence[float] = LATENCIES,
    mode: str = SEED_MODE,
) -> LoadRanges:
    """The load at every reading in `corners`, each latency, and `seeds` hash seeds, in retry `mode`."""
    chosen = range(seeds if load.hashed else 1)
    runs = [
        run(load, seed, corner, latency, mode)
        for corner in corners
        for latency in latencies
        for seed in chosen
    ]
    return LoadRanges(load, runs)


def table(results: Sequence[LoadRanges]) -> str:
    """Seed figure, the model's plain throughput and CloudWatch-style reading (median, range), errors."""
    lines = [
        f"{'load':34} {'seed':>6}  {'plain throughput':22} {'error':>6}  {'CloudWatch reading':22} error"
    ]
    for result in results:
        load = result.load
        cells = [f"{load.name:34} {load.seed_figure:>6,.0f}"]
        for span in (result.plain, result.reading):
            cells.append(f"{span!s:22} {span.middle / load.seed_figure - 1:>+6.1%}")
        lines.append("  ".join(cells) + (f"  ({_construction(result)})" if load.one_point else ""))
    runs = [run for result in results for run in result.runs]
    corners = ", ".join(corner for corner in CORNERS if any(run.corner == corner for run in runs))
    latencies = " and ".join(f"{latency * 1000:g} ms" for latency in sorted({run.latency for run in runs}))
    lines.append(
        f"{len(runs)} runs: readings {corners}; {latencies} a call; "
        "each figure is the median of a load's runs (lowest-highest)"
    )
    return "\n".join(lines)


def _construction(result: LoadRanges) -> str:
    """Which runs read the one point by construction: those whose load fit in a minute."""
    fit, runs = sum(1 for run in result.runs if run.report.duration <= 60), len(result.runs)
    if fit == runs:
        return f"{ONE_POINT}, the load fitting in a minute in every run"
    return f"{ONE_POINT} where the load fit in a minute ({fit} of {runs} runs; the others read less)"


def _span(values: list[float]) -> Span:
    return Span(statistics.median(values), min(values), max(values))
