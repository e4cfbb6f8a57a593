"""Throttled shares and load times follow the SDK's retry rules and the loader's threads.

30,000 items over 1,000 keys, shuffled, into a new on-demand table (4,000 writes a second), by
threads sharing one SDK client, each call taking 10 ms. One thread cannot offer more than 25 items
per 10 ms (2,500 a second): it never throttles and takes exactly 1,200 calls x 10 ms. Sixteen
offer 40,000 a second: they write at most at the table's 4,000 a second, and throttle; how much,
and how long the load takes, depends on the retry mode: legacy sleeps 50 ms, 100 ms... (fast
retries, the most throttling, the shortest load), standard sleeps rand(0, 1) x 2^n s and stops
when its retry quota runs dry, adaptive also rate-limits every thread once throttled (the fewest
throttles, and a load slower than one thread's: its CUBIC limiter grows back over seconds).
"""

from __future__ import annotations

import pytest

from tatami.capacity.reports.report import Report
from tatami.capacity.reports.run import simulate
from tatami.capacity.workloads.builders import SHUFFLED, Setting, keys_workload
from tatami.capacity.workloads.sdk import MODES, ClientConfig

KEYS = [(f"k{n % 1000}", n) for n in range(30_000)]
LATENCY = 0.01


def load(mode: str, workers: int) -> Report:
    setting = Setting(client=ClientConfig(mode, latency=LATENCY))
    return simulate(keys_workload("load", KEYS, setting, 100, SHUFFLED, workers))


@pytest.fixture(scope="module")
def runs() -> dict[tuple[str, int], Report]:
    return {(mode, workers): load(mode, workers) for mode in MODES for workers in (1, 16)}


@pytest.mark.parametrize("mode", MODES)
def test_one_thread_is_held_by_its_round_trips_and_never_throttles(
    runs: dict[tuple[str, int], Report], mode: str
) -> None:
    report = runs[mode, 1]
    assert report.throttled_share == 0
    assert report.duration == pytest.approx(len(KEYS) / 25 * LATENCY)


@pytest.mark.parametrize("mode", MODES)
def test_sixteen_threads_write_within_the_table_limit_and_throttle(
    runs: dict[tuple[str, int], Report], mode: str
) -> None:
    report = runs[mode, 16]
    assert report.duration >= len(KEYS) / 4000
    assert report.throttled_share > 0.01
    assert (report.duration < runs[mode, 1].duration) is (mode != "adaptive")


def test_the_retry_modes_trade_throttling_against_time_as_their_rules_say(
    runs: dict[tuple[str, int], Report],
) -> None:
    legacy, standard, adaptive = (runs[mode, 16] for mode in ("legacy", "standard", "adaptive"))
    assert legacy.throttled_share > standard.throttled_share > adaptive.throttled_share
    assert legacy.duration < standard.duration < adaptive.duration
    assert legacy.stats.errors == 0  # ten attempts with short sleeps: the SDK never gives up here
