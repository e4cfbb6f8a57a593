"""The monitoring stack watches every part of the tatami stack that can fail, with one dashboard and
one topic (infra/constructs/monitoring.py, monitoring_targets.py, alarm_topic.py)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import aws_cdk as cdk
import pytest

from infra.constructs.monitoring import Monitoring
from infra.constructs.monitoring_targets import Targets
from infra.stacks.monitoring_stack import MonitoringSettings
from tatami_functions.common.metric_names import EXPORT_FAILURES, ROLLUP_LAG
from tests.support.synthesis import Synthesized
from zindex.lambda_handler import LAG_METRIC

Alarm = dict[str, Any]


def _alarms(synthesized: Synthesized) -> list[Alarm]:
    resources = synthesized.monitoring["Resources"].values()
    return [r["Properties"] for r in resources if r["Type"] == "AWS::CloudWatch::Alarm"]


def _watched(synthesized: Synthesized, value: Any) -> str:
    """The tatami stack's logical id (or literal) behind a dimension value of the monitoring stack."""
    if isinstance(value, dict) and "Fn::GetStackOutput" in value:
        output = synthesized.template["Outputs"][value["Fn::GetStackOutput"]["OutputName"]]["Value"]
        return str(output.get("Ref") or output["Fn::GetAtt"][0])
    return str(value)


def _stat(alarm: Alarm) -> dict[str, Any]:
    """The alarm's metric stat: the returned one, or the one a returned FILL expression reads."""
    stats = [m["MetricStat"] for m in alarm.get("Metrics", []) if "MetricStat" in m]
    if not stats:
        return {"Metric": alarm, "Stat": alarm.get("Statistic") or alarm.get("ExtendedStatistic")}
    (stat,) = stats
    return dict(stat)


def _on(synthesized: Synthesized, metric: str) -> dict[tuple[str, ...], Alarm]:
    """The alarms on `metric`, keyed by their dimension values (as tatami stack ids)."""
    found: dict[tuple[str, ...], Alarm] = {}
    for alarm in _alarms(synthesized):
        stat = _stat(alarm)
        if stat["Metric"]["MetricName"] == metric:
            dimensions = sorted((d["Name"], d["Value"]) for d in stat["Metric"].get("Dimensions", []))
            key = tuple(_watched(synthesized, value) for _, value in dimensions)
            assert key not in found, f"two alarms on {metric} {key}"
            found[key] = alarm
    return found


def _ids(synthesized: Synthesized, resource_type: str) -> set[tuple[str, ...]]:
    return {(logical_id,) for logical_id in synthesized.resources(resource_type)}


def test_every_function_has_an_errors_a_throttles_and_a_duration_alarm(synthesized: Synthesized) -> None:
    functions = synthesized.resources("AWS::Lambda::Function")
    errors, throttles = _on(synthesized, "Errors"), _on(synthesized, "Throttles")
    duration = _on(synthesized, "Duration")
    assert set(errors) == set(throttles) == set(duration) == _ids(synthesized, "AWS::Lambda::Function")
    for (function_id,), alarm in errors.items():
        assert (alarm["ComparisonOperator"], alarm["Threshold"], _stat(alarm)["Stat"]) == (
            "GreaterThanThreshold",
            0,
            "Sum",
        ), function_id
        timeout_ms = functions[function_id]["Properties"]["Timeout"] * 1000
        assert duration[(function_id,)]["Threshold"] == pytest.approx(0.8 * timeout_ms)
        assert _stat(duration[(function_id,)])["Stat"] == "p99"


def test_every_stream_consumer_has_an_iterator_age_alarm(synthesized: Synthesized) -> None:
    mappings = synthesized.resources("AWS::Lambda::EventSourceMapping").values()
    consumers = {(synthesized.invoked_function(m["Properties"]["FunctionName"]),) for m in mappings}
    ages = _on(synthesized, "IteratorAge")
    assert set(ages) == consumers and len(consumers) == 5
    assert {(a["Threshold"], _stat(a)["Stat"]) for a in ages.values()} == {(300_000, "Maximum")}


def test_every_failure_queue_alarms_on_any_message(synthesized: Synthesized) -> None:
    mappings = synthesized.resources("AWS::Lambda::EventSourceMapping").values()
    destinations = {
        (m["Properties"]["DestinationConfig"]["OnFailure"]["Destination"]["Fn::GetAtt"][0],) for m in mappings
    }
    queues = _on(synthesized, "ApproximateNumberOfMessagesVisible")
    assert set(queues) == destinations == _ids(synthesized, "AWS::SQS::Queue")
    for alarm in queues.values():
        assert (alarm["Threshold"], alarm["TreatMissingData"]) == (0, "notBreaching")  # idle and empty: OK


def test_every_table_and_every_global_index_alarms_on_read_and_write_throttling(
    synthesized: Synthesized,
) -> None:
    tables = synthesized.resources("AWS::DynamoDB::GlobalTable")
    expected = {(table_id,) for table_id in tables} | {
        (index["IndexName"], table_id)
        for table_id, table in tables.items()
        for index in table["Properties"].get("GlobalSecondaryIndexes", [])
    }
    reads, writes = _on(synthesized, "ReadThrottleEvents"), _on(synthesized, "WriteThrottleEvents")
    assert set(reads) == set(writes) == expected
    assert len(expected) == 20 + 21
    assert all(a["Threshold"] == 0 and a["TreatMissingData"] == "notBreaching" for a in reads.values())


def test_the_api_alarms_on_its_5xx_rate_and_its_p99_latency(synthesized: Synthesized) -> None:
    (api,) = synthesized.resources("AWS::ApiGateway::RestApi").values()
    key = (api["Properties"]["Name"], "v1")
    (faults,) = _on(synthesized, "5XXError").items()
    (latency,) = _on(synthesized, "Latency").items()
    assert faults[0] == latency[0] == key
    assert (_stat(faults[1])["Stat"], faults[1]["Threshold"]) == ("Average", 0.01)
    assert (_stat(latency[1])["Stat"], latency[1]["Threshold"], latency[1]["DatapointsToAlarm"]) == (
        "p99",
        5000,
        3,
    )


def test_the_lags_and_export_failures_alarm_on_the_metrics_the_functions_emit(
    synthesized: Synthesized,
) -> None:
    services = {
        handler: {
            f["Properties"]["Environment"]["Variables"]["POWERTOOLS_SERVICE_NAME"]
            for f in synthesized.resources("AWS::Lambda::Function").values()
            if f["Properties"]["Handler"] == handler
        }
        for handler in (
            "zindex.lambda_handler.handler",
            "tatami_functions.counters.handler.rollup",
            "tatami_functions.olap.handler.handler",
        )
    }
    assert set(_on(synthesized, LAG_METRIC)) == {(s,) for s in services["zindex.lambda_handler.handler"]}
    assert len(services["zindex.lambda_handler.handler"]) == 2  # places and orders
    assert set(_on(synthesized, ROLLUP_LAG)) == {
        (s,) for s in services["tatami_functions.counters.handler.rollup"]
    }
    (export,) = _on(synthesized, EXPORT_FAILURES).items()
    assert {export[0]} == {(s,) for s in services["tatami_functions.olap.handler.handler"]}
    assert (_stat(export[1])["Stat"], export[1]["Threshold"]) == ("Sum", 0)


def test_one_topic_told_of_every_change_and_one_dashboard(synthesized: Synthesized) -> None:
    kinds = Counter(r["Type"] for r in synthesized.monitoring["Resources"].values())
    assert kinds["AWS::SNS::Topic"] == kinds["AWS::CloudWatch::Dashboard"] == 1
    (topic_id,) = [
        k for k, r in synthesized.monitoring["Resources"].items() if r["Type"] == "AWS::SNS::Topic"
    ]
    for alarm in _alarms(synthesized):
        assert alarm["AlarmActions"] == alarm["OKActions"] == [{"Ref": topic_id}], alarm["AlarmName"]
        assert alarm["AlarmName"].startswith("Tatami-") and "Runbook" in alarm["AlarmDescription"]
    (dashboard,) = [
        r for r in synthesized.monitoring["Resources"].values() if r["Type"].endswith("Dashboard")
    ]
    widgets = json.dumps(dashboard["Properties"]["DashboardBody"]).count('\\"type\\":')
    assert 0 < widgets < 500  # CloudWatch's limit per dashboard


def test_each_stack_stays_under_cloudformations_resource_limit(synthesized: Synthesized) -> None:
    assert len(synthesized.template["Resources"]) < 450
    assert len(synthesized.monitoring["Resources"]) < 450  # 165 today: about 3 per function, 2 per table


def test_cloudwatch_may_publish_for_this_stacks_alarms_only(synthesized: Synthesized) -> None:
    resources = synthesized.monitoring["Resources"].values()
    statements = [
        s
        for r in resources
        if r["Type"] in ("AWS::KMS::Key", "AWS::SNS::TopicPolicy")
        for s in (r["Properties"].get("KeyPolicy") or r["Properties"]["PolicyDocument"])["Statement"]
        if s.get("Principal") == {"Service": "cloudwatch.amazonaws.com"}
    ]
    assert len(statements) == 2
    for statement in statements:
        assert "alarm:Tatami-*" in json.dumps(statement["Condition"]["ArnLike"]["aws:SourceArn"])
        assert "aws:SourceAccount" in statement["Condition"]["StringEquals"]


def test_an_alarm_email_from_cdk_json_subscribes_to_the_topic() -> None:
    assert MonitoringSettings.from_context({}).alarm_email is None
    settings = MonitoringSettings.from_context({"alarmEmail": " ops@example.com "})
    stack = cdk.Stack(cdk.App(), "Watching")
    Monitoring(stack, "Monitoring", targets=Targets(), alarm_prefix="T", email=settings.alarm_email)
    template = cdk.assertions.Template.from_stack(stack)
    template.has_resource_properties(
        "AWS::SNS::Subscription", {"Protocol": "email", "Endpoint": "ops@example.com"}
    )
    with pytest.raises(ValueError, match="alarmEmail"):
        MonitoringSettings.from_context({"alarmEmail": "ops"})
