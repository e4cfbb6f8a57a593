"""The template's CloudWatch alarms, read as the local cloud evaluates them.

Both shapes CloudFormation takes are read: a single metric (`MetricName`, `Namespace`, `Dimensions`,
`Statistic` or `ExtendedStatistic`, `Period`) and metric math (`Metrics`: metric stats and one
expression returned: arithmetic, comparisons, AND/OR/NOT, FILL and IF). Dimension values are resolved
to local names (`Ref`, `Fn::GetStackOutput`, ...). What the local cloud cannot evaluate (anomaly
detection, another expression function, a metric from another account) is an error naming the
alarm, never a silent OK.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

from tatami.local.template.assembly import Assembly
from tatami.local.template.intrinsics import Resolver

__all__ = [
    "COMPARISONS",
    "AlarmSpec",
    "AlarmSpecError",
    "MetricStat",
    "parse_expression",
    "python_expression",
    "read_alarms",
]

COMPARISONS = {
    "GreaterThanThreshold": ">",
    "GreaterThanOrEqualToThreshold": ">=",
    "LessThanThreshold": "<",
    "LessThanOrEqualToThreshold": "<=",
}
_EXPRESSION_NODES = (
    ast.Expression,
    ast.Name,
    ast.Load,
    ast.Constant,
    ast.BinOp,
    ast.UnaryOp,
    ast.Call,
    ast.Compare,
    ast.BoolOp,
)
_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.USub, ast.Not, ast.And, ast.Or)
_COMPARATORS = (ast.Gt, ast.GtE, ast.Lt, ast.LtE, ast.Eq, ast.NotEq)
_FUNCTIONS = {"FILL": (2,), "IF": (2, 3)}  # the functions evaluated locally, with their argument counts
# CloudWatch's logical operators, as Python spells them (`!` but not `!=`).
_LOGICAL = (
    (re.compile(r"\s*(\bAND\b|&&)\s*"), " and "),
    (re.compile(r"\s*(\bOR\b|\|\|)\s*"), " or "),
    (re.compile(r"(\bNOT\b|!(?!=))\s*"), "not "),
)


def python_expression(expression: str) -> str:
    """A metric math expression in Python's syntax (CloudWatch's AND, OR, NOT, &&, ||, !).

    >>> python_expression("IF(a > 0 AND !(b == 0), 1, 0)")
    'IF(a > 0 and not (b == 0), 1, 0)'
    """
    for pattern, spelled in _LOGICAL:
        expression = pattern.sub(spelled, expression)
    return expression


class AlarmSpecError(ValueError):
    """An alarm of the template the local cloud cannot evaluate."""


@dataclass(frozen=True)
class MetricStat:
    id: str
    namespace: str
    name: str
    dimensions: tuple[tuple[str, str], ...]
    stat: str  # Sum, Average, Maximum, Minimum, SampleCount or a percentile such as p99
    period: int


@dataclass(frozen=True)
class AlarmSpec:
    logical_id: str
    name: str
    metrics: tuple[MetricStat, ...]
    expression: str  # over the metrics' ids: the id itself for a single metric
    comparison: str
    threshold: float
    period: int
    evaluation_periods: int
    datapoints_to_alarm: int
    treat_missing_data: str  # breaching | notBreaching | ignore | missing
    # Parsed once, where the spec is made: CPython 3.11's ast.parse is not safe in two threads at once
    # ("AST constructor recursion depth mismatch", CPython gh-106905), and alarms evaluate in a thread.
    tree: ast.expr = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        ids = {metric.id for metric in self.metrics}
        object.__setattr__(self, "tree", parse_expression(self.expression, ids))

    def describe(self) -> str:
        """`Errors Sum > 0.0 (1 of 1 x 300 s)`: what the alarm watches."""
        what = " ".join(f"{m.name} {m.stat}" for m in self.metrics)
        ratio = f"{self.datapoints_to_alarm} of {self.evaluation_periods} x {self.period} s"
        return f"{what} {COMPARISONS[self.comparison]} {self.threshold:g} ({ratio})"


def read_alarms(assembly: Assembly, resolver: Resolver) -> list[AlarmSpec]:
    """Every AWS::CloudWatch::Alarm of every stack, resolved to local values."""
    specs = []
    for stack in assembly.stacks:
        for logical_id, props in stack.resources("AWS::CloudWatch::Alarm"):
            try:
                # An alarm without AlarmName gets its physical name from CloudFormation (the local name).
                name = str(props.get("AlarmName") or resolver.refs.get(logical_id, logical_id))
                specs.append(_alarm(logical_id, name, resolver.resolve(props)))
            except (KeyError, ValueError, TypeError) as exc:
                raise AlarmSpecError(f"alarm {logical_id}: {exc}") from None
    return specs


def _alarm(logical_id: str, name: str, props: dict[str, Any]) -> AlarmSpec:
    comparison = props["ComparisonOperator"]
    if comparison not in COMPARISONS:
        raise ValueError(f"ComparisonOperator {comparison} is not evaluated locally (anomaly detection)")
    metrics, expression = _metrics(props)
    evaluation_periods = int(props["EvaluationPeriods"])
    return AlarmSpec(
        logical_id=logical_id,
        name=name,
        metrics=metrics,
        expression=expression,
        comparison=comparison,
        threshold=float(props["Threshold"]),
        period=metrics[0].period,
        evaluation_periods=evaluation_periods,
        datapoints_to_alarm=int(props.get("DatapointsToAlarm", evaluation_periods)),
        treat_missing_data=str(props.get("TreatMissingData", "missing")),
    )


def _metrics(props: dict[str, Any]) -> tuple[tuple[MetricStat, ...], str]:
    if "Metrics" not in props:
        stat = props.get("Statistic") or props["ExtendedStatistic"]
        metric = _stat("m1", props, stat, int(props["Period"]))
        return (metric,), metric.id
    stats = tuple(
        _stat(
            entry["Id"],
            entry["MetricStat"]["Metric"],
            entry["MetricStat"]["Stat"],
            entry["MetricStat"]["Period"],
        )
        for entry in props["Metrics"]
        if "MetricStat" in entry
    )
    (returned,) = [entry for entry in props["Metrics"] if entry.get("ReturnData", True)]
    if "AccountId" in returned:
        raise ValueError("a metric of another account is not evaluated locally")
    expression = returned.get("Expression", returned["Id"])
    if len({stat.period for stat in stats}) != 1:
        raise ValueError("metric math over different periods is not evaluated locally")
    return stats, expression


def _stat(metric_id: str, metric: dict[str, Any], stat: str, period: int) -> MetricStat:
    dimensions = tuple(sorted((str(d["Name"]), str(d["Value"])) for d in metric.get("Dimensions", [])))
    return MetricStat(metric_id, metric["Namespace"], metric["MetricName"], dimensions, stat, int(period))


def parse_expression(expression: str, ids: set[str]) -> ast.expr:
    """The one parse of a metric math expression: its tree, for `alarm_eval` to evaluate, once checked
    to be arithmetic, comparisons and logic over the metric `ids` and numbers, FILL(id, number) and
    IF(condition, value[, value]) (what CDK, the library and the stack's own alarms emit).

    >>> ast.dump(parse_expression("FILL(m1,0) AND m2", {"m1", "m2"}).op)
    'And()'
    >>> parse_expression("m3 > 0", {"m1"})
    Traceback (most recent call last):
    ...
    ValueError: expression 'm3 > 0': unknown metric id m3
    """
    tree = ast.parse(python_expression(expression), mode="eval")
    for node in ast.walk(tree):
        _check_node(expression, node, ids)
    return tree.body


def _check_node(expression: str, node: ast.AST, ids: set[str]) -> None:
    if isinstance(node, ast.BinOp | ast.UnaryOp | ast.BoolOp) and not isinstance(node.op, _OPERATORS):
        raise ValueError(f"expression {expression!r}: operator {type(node.op).__name__}")
    if isinstance(node, ast.Compare) and not all(isinstance(op, _COMPARATORS) for op in node.ops):
        raise ValueError(f"expression {expression!r}: a comparison is not evaluated locally")
    if not isinstance(node, _EXPRESSION_NODES + _OPERATORS + _COMPARATORS):
        raise ValueError(f"expression {expression!r}: {type(node).__name__} is not evaluated locally")
    if isinstance(node, ast.Constant) and not isinstance(node.value, int | float):
        raise ValueError(f"expression {expression!r}: {node.value!r} is not a number")
    if isinstance(node, ast.Call) and not (
        isinstance(node.func, ast.Name) and len(node.args) in _FUNCTIONS.get(node.func.id, ())
    ):
        raise ValueError(
            f"expression {expression!r}: only FILL(metric, value) and IF(condition, value[, value]) "
            "are evaluated locally"
        )
    if isinstance(node, ast.Name) and node.id not in ids | set(_FUNCTIONS):
        raise ValueError(f"expression {expression!r}: unknown metric id {node.id}")
