"""AWS's on-demand growth rule, as written, judged on what a load asks (`reports.growth`)."""

from __future__ import annotations

from tatami.capacity.reports.growth import breach, ramp


def test_doubling_no_faster_than_every_30_minutes_keeps_the_rule() -> None:
    minutes = [4000.0] * 30 + [8000.0] * 30 + [16000.0] * 30
    assert breach(minutes, warm=4000.0) is None


def test_a_shortfall_does_not_compound_the_rule_reads_what_the_load_asked() -> None:
    # the table served a little less in its first half hour (throttled at its partitions): what it
    # asked is what counts, so the next doubling is still allowed
    minutes = [4000.0] * 30 + [8000.0] * 30
    assert breach(minutes, warm=4000.0) is None


def test_doubling_within_30_minutes_breaks_it_at_the_first_minute_that_does() -> None:
    found = breach([4000.0] * 29 + [8000.0] * 31, warm=4000.0)
    assert found is not None and (found.minute, found.asked, found.allowed) == (29, 8000.0, 4000.0)
    assert breach([3000.0] * 30 + [6001.0 * 1.01], warm=4000.0) is not None  # past twice 3,000 at minute 30
    assert breach([100.0] * 5 + [3900.0], warm=4000.0) is None  # within a new table's 4,000 at once


def test_the_ramp_that_keeps_the_rule_doubles_every_30_minutes_up_to_the_peak() -> None:
    assert ramp(16000.0, warm=4000.0) == [(0, 4000.0), (30, 8000.0), (60, 16000.0)]
    assert ramp(10000.0, warm=4000.0) == [(0, 4000.0), (30, 8000.0), (60, 10000.0)]
    assert ramp(3000.0, warm=4000.0) == [(0, 3000.0)]
    assert ramp(9000.0, warm=3000.0, rule_minutes=2, factor=3.0) == [(0, 3000.0), (2, 9000.0)]
