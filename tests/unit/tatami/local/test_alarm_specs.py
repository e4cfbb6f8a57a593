"""tatami/local/cloudwatch/alarm_specs.py:
both alarm shapes of a template, resolved locally; the rest refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tatami.local.cloudwatch.alarm_specs import AlarmSpecError, read_alarms
from tatami.local.template.assembly import Assembly, Stack
from tatami.local.template.intrinsics import Resolver

SINGLE = {
    "AlarmName": "Tatami-Queue-Critical",
    "ComparisonOperator": "GreaterThanThreshold",
    "EvaluationPeriods": 2,
    "MetricName": "ApproximateNumberOfMessagesVisible",
    "Namespace": "AWS/SQS",
    "Dimensions": [{"Name": "QueueName", "Value": {"Fn::GetAtt": ["Queue", "QueueName"]}}],
    "Statistic": "Maximum",
    "Period": 300,
    "Threshold": 0,
}
MATH = {
    "AlarmName": "Tatami-Table-Read-Throttled",
    "ComparisonOperator": "GreaterThanOrEqualToThreshold",
    "DatapointsToAlarm": 1,
    "EvaluationPeriods": 3,
    "Threshold": 1,
    "TreatMissingData": "notBreaching",
    "Metrics": [
        {"Id": "expr_1", "Expression": "FILL(reads,0)", "ReturnData": True},
        {
            "Id": "reads",
            "ReturnData": False,
            "MetricStat": {
                "Metric": {
                    "Namespace": "AWS/DynamoDB",
                    "MetricName": "ReadThrottleEvents",
                    "Dimensions": [
                        {
                            "Name": "TableName",
                            "Value": {"Fn::GetStackOutput": {"StackName": "Main", "OutputName": "TableRef"}},
                        }
                    ],
                },
                "Period": 60,
                "Stat": "Sum",
            },
        },
    ],
}


def specs(*alarms: dict[str, Any]) -> list[Any]:
    resources = {
        f"Alarm{n}": {"Type": "AWS::CloudWatch::Alarm", "Properties": a} for n, a in enumerate(alarms)
    }
    stack = Stack("Monitoring", {"Resources": resources}, asset_dirs={Path("x").name: Path("x")})
    resolver = Resolver("Main", attributes={("Queue", "QueueName"): "Main-Queue"})
    resolver.stack_outputs[("Main", "TableRef")] = "Main-Table"
    return read_alarms(Assembly(stacks=[stack]), resolver)


def test_a_single_metric_alarm() -> None:
    (spec,) = specs(SINGLE)
    assert (spec.name, spec.expression, spec.period, spec.datapoints_to_alarm) == (
        "Tatami-Queue-Critical",
        "m1",
        300,
        2,
    )
    assert spec.metrics[0].dimensions == (("QueueName", "Main-Queue"),)
    assert spec.treat_missing_data == "missing"  # CloudWatch's default
    assert spec.describe() == "ApproximateNumberOfMessagesVisible Maximum > 0 (2 of 2 x 300 s)"


def test_a_metric_math_alarm_reads_its_stats_and_the_returned_expression() -> None:
    (spec,) = specs(MATH)
    assert spec.expression == "FILL(reads,0)" and spec.period == 60
    assert spec.metrics[0].dimensions == (("TableName", "Main-Table"),)  # a weak cross-stack reference


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"ComparisonOperator": "LessThanLowerOrGreaterThanUpperThreshold"}, "anomaly detection"),
        ({"Metrics": [{**MATH["Metrics"][0], "Expression": "RATE(reads)"}, MATH["Metrics"][1]]}, "FILL"),
        ({"Metrics": [{**MATH["Metrics"][0], "Expression": "FILL(writes,0)"}, MATH["Metrics"][1]]}, "writes"),
        ({"Metrics": [{**MATH["Metrics"][0], "Expression": "reads ** 2"}, MATH["Metrics"][1]]}, "Pow"),
        ({"Metrics": [{**MATH["Metrics"][0], "Expression": "reads + 'x'"}, MATH["Metrics"][1]]}, "number"),
    ],
)
def test_what_cannot_be_evaluated_locally_is_refused_naming_the_alarm(
    change: dict[str, Any], named: str
) -> None:
    with pytest.raises(AlarmSpecError, match=f"alarm Alarm0: .*{named}"):
        specs({**MATH, **change})


def test_cloudwatch_logic_and_if_are_read() -> None:
    expression = "IF(reads > 0 AND NOT (reads == 3) || !reads, 1, 0)"
    (spec,) = specs(
        {**MATH, "Metrics": [{**MATH["Metrics"][0], "Expression": expression}, MATH["Metrics"][1]]}
    )
    assert spec.expression == expression


@pytest.mark.parametrize("expression", ["IF(reads)", "MAX(reads)", "reads < writes"])
def test_an_expression_the_local_cloud_cannot_evaluate_is_refused(expression: str) -> None:
    with pytest.raises(AlarmSpecError, match="alarm Alarm0: "):
        specs({**MATH, "Metrics": [{**MATH["Metrics"][0], "Expression": expression}, MATH["Metrics"][1]]})
