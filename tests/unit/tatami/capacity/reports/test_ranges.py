"""Every figure as a range: hash seeds at the middle reading, and the pessimistic and optimistic ends."""

from __future__ import annotations

import os

import pytest

from tatami.capacity.reports import ranges
from tatami.capacity.reports.ranges import Span, sweep
from tatami.capacity.workloads.builders import Setting, Workload, counter_workload


def counters(setting: Setting) -> Workload:
    return counter_workload("votes", 4, 4000, 10, setting)


def test_a_range_runs_each_hash_seed_at_the_middle_and_the_two_ends_at_the_first_seed() -> None:
    ranges = sweep(counters, Setting(seed=5), seeds=2)
    assert [(corner, seed) for corner, seed, _ in ranges.runs] == [
        ("middle", 5),
        ("middle", 6),
        ("pessimistic", 5),
        ("optimistic", 5),
    ]
    throughput = ranges.span(lambda report: report.throughput)
    rates = [report.throughput for _, _, report in ranges.runs]
    assert throughput.low == min(rates) and throughput.high == max(rates)
    assert throughput.middle == pytest.approx((rates[0] + rates[1]) / 2)  # the median of the middle runs
    assert ranges.runs[3][2].choices.startswith("token bucket")
    text = ranges.describe()
    assert "over 4 runs (middle reading" in text and "optimistic: token bucket" in text and "verdicts" in text


def test_one_reading_runs_only_its_seeds_and_a_bad_one_is_refused() -> None:
    ranges = sweep(counters, Setting(), seeds=1, assume="pessimistic")
    assert [corner for corner, _, _ in ranges.runs] == ["pessimistic"]
    assert "pessimistic reading (per second" in ranges.describe()
    with pytest.raises(ValueError, match="assume 'all'"):
        sweep(counters, Setting(), assume="all")


def test_a_span_shows_one_value_when_every_run_agrees() -> None:
    assert str(Span(3317, 2711, 3572)) == "3,317 (2,711-3,572)"
    assert Span(1000, 1000, 1000).format(unit="/s") == "1,000/s"
    assert Span(1180, 1176, 1199).within(1250, 0.15) and not Span(1000, 900, 1100).within(1250, 0.15)


def test_a_large_workloads_other_runs_go_to_processes_of_their_own_with_the_same_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def named(setting: Setting) -> Workload:  # the builder runs where the run does: its name says where
        workload = counter_workload("votes", 4, 4000, 10, setting)
        workload.name = f"votes in {os.getpid()}"
        return workload

    alone = sweep(named, Setting(), seeds=2)
    monkeypatch.setattr(ranges, "PARALLEL_FROM", 1)  # as if 40,000 requests were a large run
    monkeypatch.setattr(ranges, "_processors", lambda: 2)
    forked = sweep(named, Setting(), seeds=2)
    assert [report.throughput for *_, report in forked.runs] == [
        report.throughput for *_, report in alone.runs
    ]
    assert [corner for corner, _, _ in forked.runs] == [corner for corner, _, _ in alone.runs]
    places = [report.workload for *_, report in forked.runs]
    assert places[0] == f"votes in {os.getpid()}" and all(
        str(os.getpid()) not in place for place in places[1:]
    )
