"""How CloudWatch decides an alarm's state, applied to the local cloud's datapoints.

The evaluation range is the alarm's last `EvaluationPeriods` complete periods (aligned to multiples of
the period, as CloudWatch aligns them). Each period's value is the statistic of the datapoints in it
(or the expression over the metrics' statistics); a period with none is missing. Missing periods count
as `TreatMissingData` says: `breaching` and `notBreaching` as such; `ignore` and `missing` not at all,
and when every period is missing the state stays as it was (`ignore`) or becomes INSUFFICIENT_DATA
(`missing`). The alarm is ALARM when at least `DatapointsToAlarm` periods breach, otherwise OK.

>>> spec = AlarmSpec("A", "A", (MetricStat("m1", "N", "Errors", (), "Sum", 60),), "m1",
...                  "GreaterThanThreshold", 0.0, 60, 1, 1, "notBreaching")
>>> values = lambda stat, start, end: [2.0] if start == 60 else []
>>> evaluate(spec, values, now=130.0, previous=INSUFFICIENT_DATA).state
'ALARM'
"""

from __future__ import annotations

import ast
import itertools
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from tatami.local.cloudwatch.alarm_specs import COMPARISONS, AlarmSpec, MetricStat

__all__ = ["ALARM", "INSUFFICIENT_DATA", "OK", "Verdict", "breaches_when_missing", "evaluate", "statistic"]

ALARM, OK, INSUFFICIENT_DATA = "ALARM", "OK", "INSUFFICIENT_DATA"
Values = Callable[[MetricStat, float, float], list[float]]  # a metric's datapoints with start <= t < end
_COMPARE = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}
_RELATIONS = {
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}
_ARITHMETIC = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


@dataclass(frozen=True)
class Verdict:
    state: str
    reason: str


SIMPLE_STATISTICS: dict[str, Callable[[list[float]], float]] = {
    "Sum": math.fsum,
    "Average": lambda v: math.fsum(v) / len(v),
    "Maximum": max,
    "Minimum": min,
    "SampleCount": lambda v: float(len(v)),
}


def statistic(stat: str, values: list[float]) -> float | None:
    """CloudWatch's statistic of one period's datapoints; None when there are none.

    >>> statistic("p50", [1.0, 2.0, 3.0, 4.0]), statistic("Average", [1.0, 2.0])
    (2.0, 1.5)
    """
    if not values:
        return None
    if stat in SIMPLE_STATISTICS:
        return SIMPLE_STATISTICS[stat](values)
    if stat.startswith("p"):  # nearest rank
        ordered = sorted(values)
        rank = math.ceil(float(stat[1:]) / 100 * len(ordered))
        return ordered[max(0, rank - 1)]
    raise ValueError(f"statistic {stat} is not evaluated locally")


def evaluate(spec: AlarmSpec, values: Values, now: float, previous: str) -> Verdict:
    """The alarm's state at `now` (on the local cloud's clock) from its datapoints."""
    last_end = math.floor(now / spec.period) * spec.period
    starts = [last_end - spec.period * n for n in range(spec.evaluation_periods, 0, -1)]
    points = [(start, _period_value(spec, values, start)) for start in starts]
    verdicts = [_breaches(spec, value) for _, value in points]
    counted = [v for v in verdicts if v is not None]
    shown = ", ".join(f"{'-' if v is None else f'{v:g}'} ({_when(t)})" for t, v in points)
    if not counted:
        kept = previous if spec.treat_missing_data == "ignore" else INSUFFICIENT_DATA
        return Verdict(kept, f"no datapoints in the last {len(points)} periods [{shown}]")
    breaching = sum(counted)
    state = ALARM if breaching >= spec.datapoints_to_alarm else OK
    reason = (
        f"{breaching} of the last {len(points)} datapoints [{shown}] {COMPARISONS[spec.comparison]} "
        f"{spec.threshold:g} (ALARM from {spec.datapoints_to_alarm})"
    )
    return Verdict(state, reason)


def breaches_when_missing(spec: AlarmSpec) -> bool:
    """Whether a period without any datapoint breaches (through FILL, or `TreatMissingData`)."""
    return _breaches(spec, _expression(spec.tree, {metric.id: None for metric in spec.metrics})) is True


def _breaches(spec: AlarmSpec, value: float | None) -> bool | None:
    """Whether a period breaches; None when it does not count (missing, and missing is not counted)."""
    if value is None:
        return {"breaching": True, "notBreaching": False}.get(spec.treat_missing_data)
    return bool(_COMPARE[COMPARISONS[spec.comparison]](value, spec.threshold))


def _period_value(spec: AlarmSpec, values: Values, start: float) -> float | None:
    series = {m.id: statistic(m.stat, values(m, start, start + spec.period)) for m in spec.metrics}
    return _expression(spec.tree, series)


def _expression(node: ast.expr, series: dict[str, float | None]) -> float | None:
    """An expression alarm_specs checked: ids, numbers, + - * /, unary minus, comparisons and AND/OR/NOT
    (true is 1, false 0, as in CloudWatch), FILL(id, number) and IF(condition, value[, value]). A
    missing operand makes the result missing; so does IF without an else whose condition is false."""
    if isinstance(node, ast.Name):
        return series[node.id]
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.Call):
        return _call(node, series)
    if isinstance(node, ast.UnaryOp):
        operand = _expression(node.operand, series)
        if operand is None:
            return None
        return float(not operand) if isinstance(node.op, ast.Not) else -operand
    if isinstance(node, ast.Compare | ast.BoolOp):
        return _logic(node, series)
    assert isinstance(node, ast.BinOp)
    left, right = _expression(node.left, series), _expression(node.right, series)
    if left is None or right is None or (isinstance(node.op, ast.Div) and right == 0):
        return None
    return float(_ARITHMETIC[type(node.op)](left, right))


def _call(node: ast.Call, series: dict[str, float | None]) -> float | None:
    assert isinstance(node.func, ast.Name)
    first = _expression(node.args[0], series)
    if node.func.id == "FILL":  # FILL(metric, value): a missing period counts as value
        return first if first is not None else _expression(node.args[1], series)
    if first is None:  # IF(condition, then[, else])
        return None
    if first:
        return _expression(node.args[1], series)
    return _expression(node.args[2], series) if len(node.args) == 3 else None


def _logic(node: ast.Compare | ast.BoolOp, series: dict[str, float | None]) -> float | None:
    if isinstance(node, ast.BoolOp):
        values = [_expression(value, series) for value in node.values]
        if any(value is None for value in values):
            return None
        combine = all if isinstance(node.op, ast.And) else any
        return float(combine(values))
    found = [_expression(operand, series) for operand in (node.left, *node.comparators)]
    operands = [operand for operand in found if operand is not None]
    if len(operands) < len(found):
        return None
    pairs = itertools.pairwise(operands)
    return float(all(_RELATIONS[type(op)](a, b) for op, (a, b) in zip(node.ops, pairs, strict=True)))


def _when(epoch_seconds: float) -> str:
    return datetime.fromtimestamp(epoch_seconds, UTC).strftime("%H:%M:%S")
