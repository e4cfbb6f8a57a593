"""Seed 003's four measured loads, from the model alone (the issue's acceptance test).

Nothing in the model is fitted to these figures: the constants are AWS's (`model.limits`), the
retry rules botocore's, and the workload is the seed's (seed003: its data set, in file order or
shuffled, by one thread with boto3's batch_writer in the legacy retry mode of its time). The seed
read its figures off CloudWatch's one-minute graphs; the model's loads are read the same way and as
plain throughput (items over the load's time), and both must come within 15%.

This test runs the middle reading of what AWS leaves open, at the seed's slower latency (4 ms a
call), with three hash seeds; `test_seed003_ranges` (marked long) and `bench/capacity_seed003.py`
run every reading and both latencies and report the ranges.
"""

from __future__ import annotations

import pytest

from tatami.capacity.adapters import seed003
from tatami.capacity.reports.verdict import Verdict

TOLERANCE = 0.15  # the acceptance: within 15% of the seed's figures
HASH_SEEDS = (0, 1, 2)


@pytest.fixture(scope="module")
def results() -> list[seed003.LoadRanges]:
    found = [
        seed003.LoadRanges(load, [seed003.run(load, seed) for seed in (HASH_SEEDS if load.hashed else (0,))])
        for load in seed003.LOADS
    ]
    print("\n" + seed003.table(found))  # the figures, side by side (pytest -s shows them)
    return found


@pytest.mark.parametrize("index", range(3), ids=[load.name for load in seed003.LOADS[:3]])
def test_loads_1_to_3_come_out_of_the_model_within_15_percent_both_ways(
    results: list[seed003.LoadRanges], index: int
) -> None:
    result = results[index]
    seed_figure = result.load.seed_figure
    assert result.plain.within(seed_figure, TOLERANCE), seed003.table([result])
    assert result.reading.within(seed_figure, TOLERANCE), seed003.table([result])


def test_the_fourth_load_is_read_by_construction_and_told_as_plain_throughput(
    results: list[seed003.LoadRanges],
) -> None:
    result = results[3]
    assert all(run.report.duration <= 60 for run in result.runs)  # it fits a minute, as the seed saw
    assert {round(run.reading) for run in result.runs} == {6000}  # so its one point is 360,000 / 60
    assert all(max(run.report.rate()) > run.reading for run in result.runs)  # "the peak exceeded this"
    assert result.plain.middle > 6000  # the model's own figure: the load took under a minute
    assert "by construction" in seed003.table([result]).splitlines()[1]


def test_no_load_is_long_or_hot_enough_to_split(results: list[seed003.LoadRanges]) -> None:
    # So the figures do not depend on the split delay, which AWS does not publish.
    assert all(run.report.splits["table"] == [] for result in results for run in result.runs)


def test_each_load_names_its_cause(results: list[seed003.LoadRanges]) -> None:
    first = [[verdict(run).diagnoses[0] for run in result.runs] for result in results[:3]]
    assert {diagnosis.kind for diagnosis in first[0]} == {"hot key"}
    assert {diagnosis.kind for diagnosis in first[1]} == {"rolling hot partition"}
    # shuffled onto a new table's four partitions: some or all of them full, as the hash fell
    assert {diagnosis.kind for diagnosis in first[2]} <= {"busy partition", "table limit"}
    assert all("warm" in diagnosis.fix for diagnosis in first[2])
    (one_key,) = results[0].runs
    assert {round(point) for point in one_key.report.rate()[:-1]} == {1000}


def verdict(run: seed003.LoadRun) -> Verdict:
    assert run.report.verdict is not None
    return run.report.verdict


def test_file_order_is_slower_than_shuffled_for_every_hash_seed(results: list[seed003.LoadRanges]) -> None:
    for in_order, shuffled in zip(results[1].runs, results[2].runs, strict=True):
        assert in_order.report.duration > 2 * shuffled.report.duration


@pytest.mark.long
def test_seed003_ranges() -> None:
    """Every reading, both latencies, three hash seeds: the median of a load's runs within 15%."""
    found = [seed003.ranges(load, seeds=3) for load in seed003.LOADS]
    print("\n" + seed003.table(found))
    for result in found[:3]:
        assert result.plain.within(result.load.seed_figure, TOLERANCE)
        assert result.reading.within(result.load.seed_figure, TOLERANCE)
