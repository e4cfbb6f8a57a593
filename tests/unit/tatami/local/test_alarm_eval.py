"""tatami/local/cloudwatch/alarm_eval.py:
CloudWatch's statistics, M-of-N datapoints and missing-data treatments."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tatami.local.cloudwatch.alarm_eval import (
    ALARM,
    INSUFFICIENT_DATA,
    OK,
    breaches_when_missing,
    evaluate,
    statistic,
)
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


STALLED = "IF(FILL(written,0) > 0 AND FILL(invoked,0) == 0, 86400000, FILL(age,0))"


def _stream_spec(expression: str) -> AlarmSpec:
    ids = [replace(ERRORS, id=name, name=name) for name in ("written", "invoked", "age")]
    return replace(
        SPEC,
        metrics=tuple(ids),
        expression=expression,
        threshold=300_000.0,
        treat_missing_data="notBreaching",
    )


@pytest.mark.parametrize(
    ("written", "invoked", "age", "expected"),
    [
        ([3.0], [], [], ALARM),  # written, never invoked: a stopped consumer
        ([3.0], [1.0], [10.0], OK),  # written and read at once
        ([], [], [], OK),  # an idle table
        ([], [1.0], [400_000.0], ALARM),  # read, but late
    ],
)
def test_if_comparisons_and_logic_as_cloudwatch_evaluates_them(
    written: list[float], invoked: list[float], age: list[float], expected: str
) -> None:
    given = {"written": written, "invoked": invoked, "age": age}
    spec = replace(_stream_spec(STALLED), evaluation_periods=1, datapoints_to_alarm=1)

    def values(metric: MetricStat, start: float, _end: float) -> list[float]:
        return given[metric.id] if start // PERIOD == 9 else []

    assert evaluate(spec, values, NOW, OK).state == expected


def test_if_without_an_else_leaves_a_period_missing() -> None:
    """The API's rate alarms: a period with too few requests has no value, so it cannot breach."""
    rate = replace(ERRORS, id="metric", name="5XXError", stat="Average")
    count = replace(ERRORS, id="sampleCount", name="5XXError", stat="SampleCount")
    spec = replace(
        SPEC,
        metrics=(rate, count),
        expression="IF(sampleCount > 50, metric)",
        threshold=0.05,
        evaluation_periods=1,
        datapoints_to_alarm=1,
        treat_missing_data="notBreaching",
    )
    few, many = [1.0] * 3, [1.0] * 10 + [0.0] * 50
    for answers, expected in ((few, OK), (many, ALARM)):
        verdict = evaluate(spec, lambda _m, start, _e, a=answers: a if start // PERIOD == 9 else [], NOW, OK)
        assert verdict.state == expected, verdict.reason


def test_whether_a_missing_period_breaches() -> None:
    assert not breaches_when_missing(_stream_spec(STALLED))
    assert breaches_when_missing(replace(SPEC, treat_missing_data="breaching"))
    assert breaches_when_missing(replace(SPEC, expression="FILL(m1, 5)"))  # 5 > 0
