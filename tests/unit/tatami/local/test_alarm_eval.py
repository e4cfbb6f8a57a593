"""tatami/local/cloudwatch/alarm_eval.py:
CloudWatch's statistics, M-of-N datapoints and missing-data treatments."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tatami.local.cloudwatch.alarm_eval import ALARM, INSUFFICIENT_DATA, OK, evaluate, statistic
from tatami.local.cloudwatch.alarm_specs import AlarmSpec, MetricStat

PERIOD = 300
ERRORS = MetricStat("m1", "AWS/Lambda", "Errors", (("FunctionName", "f"),), "Sum", PERIOD)
SPEC = AlarmSpec("A", "errors", (ERRORS,), "m1", "GreaterThanThreshold", 0.0, PERIOD, 3, 2, "missing")
NOW = 10 * PERIOD + 42  # periods 7, 8 and 9 are the last three complete ones; 10 is under way


def points(per_period: dict[int, list[float]]):  # type: ignore[no-untyped-def]
    """Datapoints by period number, as the store would answer for [start, end)."""
    return lambda _metric, start, end: (
        per_period.get(int(start // PERIOD), []) if end - start == PERIOD else []
    )


@pytest.mark.parametrize(
    ("stat", "expected"),
    [("Sum", 10.0), ("Average", 2.5), ("Maximum", 4.0), ("Minimum", 1.0), ("SampleCount", 4.0), ("p75", 3.0)],
)
def test_statistics(stat: str, expected: float) -> None:
    assert statistic(stat, [4.0, 1.0, 3.0, 2.0]) == expected


def test_p99_of_a_hundred_is_the_99th_value_and_no_datapoint_is_no_statistic() -> None:
    assert statistic("p99", [float(n) for n in range(1, 101)]) == 99.0
    assert statistic("Sum", []) is None


def test_datapoints_to_alarm_of_evaluation_periods() -> None:
    assert evaluate(SPEC, points({8: [1.0], 9: [2.0]}), NOW, OK).state == ALARM
    verdict = evaluate(SPEC, points({7: [0.0], 8: [0.0], 9: [3.0]}), NOW, ALARM)
    assert verdict.state == OK and "1 of the last 3 datapoints" in verdict.reason


def test_the_period_under_way_does_not_count_yet() -> None:
    assert evaluate(SPEC, points({10: [5.0], 11: [5.0]}), NOW, OK).state == INSUFFICIENT_DATA


@pytest.mark.parametrize(
    ("treatment", "previous", "expected"),
    [
        ("missing", ALARM, INSUFFICIENT_DATA),
        ("ignore", ALARM, ALARM),
        ("notBreaching", ALARM, OK),
        ("breaching", OK, ALARM),
    ],
)
def test_when_every_period_is_missing(treatment: str, previous: str, expected: str) -> None:
    spec = replace(SPEC, treat_missing_data=treatment)
    assert evaluate(spec, points({}), NOW, previous).state == expected


def test_missing_periods_do_not_count_unless_told_to() -> None:
    one_breach = points({9: [1.0]})
    assert evaluate(SPEC, one_breach, NOW, OK).state == OK  # 1 of the 1 present < 2
    assert evaluate(replace(SPEC, treat_missing_data="breaching"), one_breach, NOW, OK).state == ALARM


def test_fill_and_arithmetic_over_metric_ids() -> None:
    reads = replace(ERRORS, id="reads", name="ReadThrottleEvents")
    filled = replace(SPEC, metrics=(reads,), expression="FILL(reads, 0)", treat_missing_data="missing")
    assert evaluate(filled, points({}), NOW, ALARM).state == OK  # filled periods are present, at 0
    invocations = replace(ERRORS, id="inv", name="Invocations")
    rate = replace(SPEC, metrics=(ERRORS, invocations), expression="100 * m1 / inv", threshold=50.0)

    def values(metric: MetricStat, start: float, _end: float) -> list[float]:
        if start // PERIOD not in (8, 9):
            return []
        return [1.0] if metric.id == "m1" else [1.0, 1.0, 1.0]  # 33% in 8, as in 9

    assert evaluate(rate, values, NOW, OK).state == OK
    assert evaluate(replace(rate, threshold=30.0), values, NOW, OK).state == ALARM
