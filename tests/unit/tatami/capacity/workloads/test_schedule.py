"""Rates that change over time (`workloads.schedule`): the CLI's `--rate` text, and what each second gets."""

from __future__ import annotations

import pytest

from tatami.capacity.workloads.schedule import Schedule, ScheduleError


def test_steps_read_in_seconds_minutes_or_hours_and_apply_from_their_start() -> None:
    ramp = Schedule.parse("4000, 8000@30m, 16000@1h, 500@3700")
    assert [ramp.rate_at(second) for second in (0, 1799, 1800, 3599, 3600, 3700)] == [
        4000,
        4000,
        8000,
        8000,
        16000,
        500,
    ]
    assert ramp.peak == 16000 and ramp.steady_rate is None and Schedule.parse("250.5").steady_rate == 250.5


def test_a_step_inside_a_second_counts_pro_rata_and_a_share_scales_every_step() -> None:
    half = Schedule(((0.0, 100.0), (1.5, 300.0)))
    assert half.per_second(3) == [100.0, 200.0, 300.0]
    assert half.scaled(0.25).per_second(3) == [25.0, 50.0, 75.0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("fast", "step 1 'fast': expected RATE"),
        ("100,200", "step 2 '200': expected RATE@START"),
        ("100,200@5m,300@2m", "must increase"),
        ("100@10", "step 1 '100@10': expected RATE"),
    ],
)
def test_a_bad_schedule_names_its_step_and_how_to_write_it(text: str, message: str) -> None:
    with pytest.raises(ScheduleError, match=message):
        Schedule.parse(text)
