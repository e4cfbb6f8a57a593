"""CloudWatch's one-minute points of a run, and the figure a reader reads off them."""

from __future__ import annotations

from tatami.capacity.reports.measure import expected_reading, minute_points, reading


def test_cloudwatch_minutes_and_what_a_reader_reads_off_them() -> None:
    steady = [100.0] * 140
    assert [(round(p.value), p.full) for p in minute_points(steady, offset=30)] == [
        (50, False),
        (100, True),
        (83, False),
    ]
    assert reading(minute_points(steady, offset=30)) == 100.0
    assert reading(minute_points([6000.0] * 50)) == 5000.0  # a sub-minute load is one point: its sum / 60
    assert expected_reading(steady) == 100.0
