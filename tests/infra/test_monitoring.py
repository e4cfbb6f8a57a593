"""The monitoring stack watches every part of the tatami stack that can fail, each alarm shaped so it can
fire (infra/constructs/monitoring.py, alarm_families.py, monitoring_targets.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tatami_functions.common.metric_names import EXPORT_AGE, EXPORT_FAILURES, ROLLUP_LAG
from tests.support.alarm_templates import Alarm, alarms, expression, ids, on, series, stats
from tests.support.synthesis import Synthesized
from zindex.lambda_handler import LAG_METRIC, UNENCODABLE_METRIC

STACK = "Tatami"


def _function_settings(synthesized: Synthesized, handler: str) -> set[tuple[str, ...]]:
    """The `service` dimension values of the functions built from `handler`."""
    return {
        (f["Properties"]["Environment"]["Variables"]["POWERTOOLS_SERVICE_NAME"],)
        for f in synthesized.resources("AWS::Lambda::Function").values()
        if f["Properties"]["Handler"] == handler
    }


def test_every_function_has_an_errors_a_throttles_and_a_duration_alarm(synthesized: Synthesized) -> None:
    functions = synthesized.resources("AWS::Lambda::Function")
    errors, throttles = on(synthesized, "Errors"), on(synthesized, "Throttles")
    duration = on(synthesized, "Duration")
    assert set(errors) == set(throttles) == set(duration) == ids(synthesized, "AWS::Lambda::Function")
    for (function,), alarm in errors.items():
        assert (alarm["ComparisonOperator"], alarm["Threshold"], stats(alarm)[0]["Stat"]) == (
            "GreaterThanThreshold",
            0,
            "Sum",
        ), function
        timeout_ms = functions[function.split(":")[1]]["Properties"]["Timeout"] * 1000
        slow = duration[(function,)]
        assert slow["Threshold"] == pytest.approx(0.8 * timeout_ms)
        # One quarter hour's p99, one datapoint: a sporadic or hourly function can trip it too.
        assert (stats(slow)[0]["Stat"], stats(slow)[0]["Period"], slow["DatapointsToAlarm"]) == (
            "p99",
            900,
            1,
        )
        assert slow["TreatMissingData"] == "notBreaching"


def consumer(synthesized: Synthesized, mapping: dict[str, Any]) -> str:
    """The function a stream mapping invokes (through its alias), as the alarms name it."""
    return f"{STACK}:{synthesized.invoked_function(mapping['FunctionName'])}"


def test_every_stream_consumer_has_an_iterator_age_alarm(synthesized: Synthesized) -> None:
    mappings = synthesized.resources("AWS::Lambda::EventSourceMapping").values()
    consumers = {(consumer(synthesized, m["Properties"]),) for m in mappings}
    ages = on(synthesized, "IteratorAge")
    assert set(ages) == consumers and len(consumers) == 5
    assert {(a["Threshold"], stats(a)[0]["Stat"], a["TreatMissingData"]) for a in ages.values()} == {
        (300_000, "Maximum", "notBreaching")  # reading nothing is the next alarm's to judge
    }


def test_a_stream_consumer_that_stops_being_invoked_while_its_table_is_written_alarms(
    synthesized: Synthesized,
) -> None:
    """A stopped mapping reports no iterator age at all; its table's writes without one invocation,
    two periods running, say it. A mapping with a filter may rightly skip every write: not judged."""
    mappings = [m["Properties"] for m in synthesized.resources("AWS::Lambda::EventSourceMapping").values()]
    unfiltered = {
        consumer(synthesized, m): f"{STACK}:{m['EventSourceArn']['Fn::GetAtt'][0]}"
        for m in mappings
        if "FilterCriteria" not in m
    }
    stopped = on(synthesized, "Invocations")
    assert {function for (function,) in stopped} == set(unfiltered) and len(unfiltered) == 4
    for (function,), alarm in stopped.items():
        read = {name: dict(dimensions) for _, name, dimensions in series(synthesized, alarm)}
        assert read == {
            "Invocations": {"FunctionName": function},
            "ConsumedWriteCapacityUnits": {"TableName": unfiltered[function]},
        }
        assert expression(alarm) == "IF(FILL(written,0) > 0 AND FILL(invoked,0) == 0, 1, 0)"
        assert (alarm["Threshold"], alarm["DatapointsToAlarm"], alarm["EvaluationPeriods"]) == (0, 2, 2)
        assert alarm["AlarmName"].endswith("-Stopped-Critical")


def test_every_stream_consumer_alarms_on_failed_deliveries_to_its_failure_queue(
    synthesized: Synthesized,
) -> None:
    mappings = synthesized.resources("AWS::Lambda::EventSourceMapping").values()
    consumers = {(consumer(synthesized, m["Properties"]),) for m in mappings}
    failures = on(synthesized, "DestinationDeliveryFailures")
    assert set(failures) == consumers
    assert all(a["Threshold"] == 0 and a["AlarmName"].endswith("-Critical") for a in failures.values())


def test_every_failure_queue_alarms_on_any_message(synthesized: Synthesized) -> None:
    mappings = synthesized.resources("AWS::Lambda::EventSourceMapping").values()
    destinations = {
        (f"{STACK}:{m['Properties']['DestinationConfig']['OnFailure']['Destination']['Fn::GetAtt'][0]}",)
        for m in mappings
    }
    (rule,) = synthesized.resources("AWS::Events::Rule").values()
    (target,) = rule["Properties"]["Targets"]
    dead_letters = {(f"{STACK}:{target['DeadLetterConfig']['Arn']['Fn::GetAtt'][0]}",)}
    waiting, sent = (
        on(synthesized, "ApproximateNumberOfMessagesVisible"),
        on(synthesized, "NumberOfMessagesSent"),
    )
    aging = on(synthesized, "ApproximateAgeOfOldestMessage")
    assert (
        set(waiting)
        == set(sent)
        == set(aging)
        == destinations | dead_letters
        == ids(synthesized, "AWS::SQS::Queue")
    )
    for queue, alarm in waiting.items():
        assert (alarm["Threshold"], alarm["TreatMissingData"]) == (0, "notBreaching")  # idle and empty: OK
        # A message arriving pages for its period; one waiting, or nearing SQS's expiry, is a Warning.
        assert sent[queue]["AlarmName"].endswith("-Critical") and sent[queue]["Threshold"] == 0
        assert alarm["AlarmName"].endswith("-Warning") and aging[queue]["AlarmName"].endswith("-Warning")
        assert aging[queue]["Threshold"] == 10 * 86_400 < 14 * 86_400


def test_every_table_and_every_global_index_alarms_on_read_and_write_throttling(
    synthesized: Synthesized,
) -> None:
    """One alarm per table over it and its indexes (82 alarms before, one per table, index and kind),
    with a floor: a few throttled requests, retried by the SDK, are no news."""
    tables = synthesized.resources("AWS::DynamoDB::GlobalTable")
    expected = {(table_id, None) for table_id in tables} | {
        (table_id, index["IndexName"])
        for table_id, table in tables.items()
        for index in table["Properties"].get("GlobalSecondaryIndexes", [])
    }
    watched: dict[tuple[str, str | None], set[str]] = {}
    for alarm in _throttle_alarms(synthesized):
        assert alarm["Threshold"] == 50 and alarm["TreatMissingData"] == "notBreaching"
        assert len(stats(alarm)) <= 10  # CloudWatch's limit for one metric math alarm
        for _, name, dimensions in series(synthesized, alarm):
            found = dict(dimensions)
            key = (found["TableName"].split(":")[1], found.get("GlobalSecondaryIndexName"))
            watched.setdefault(key, set()).add(name)
    assert watched == {key: {"ReadThrottleEvents", "WriteThrottleEvents"} for key in expected}
    assert len(expected) == 20 + 21 and len(_throttle_alarms(synthesized)) == 20


def _throttle_alarms(synthesized: Synthesized) -> list[Alarm]:
    return [a for a in alarms(synthesized).values() if "Throttled-Events" in str(a["AlarmName"])]


def test_every_table_alarms_on_dynamodbs_system_errors(synthesized: Synthesized) -> None:
    errors = on(synthesized, "SystemErrors")
    assert {table for _operation, table in errors} == {
        f"{STACK}:{table}" for table in synthesized.resources("AWS::DynamoDB::GlobalTable")
    }
    for alarm in errors.values():
        operations = {dict(d)["Operation"] for _, _, d in series(synthesized, alarm)}
        assert {"GetItem", "Query", "PutItem", "UpdateItem", "TransactWriteItems"} <= operations
        assert len(operations) <= 10 and alarm["Threshold"] == 10


def test_the_api_alarms_on_its_5xx_rate_and_its_p99_latency(synthesized: Synthesized) -> None:
    (api,) = synthesized.resources("AWS::ApiGateway::RestApi").values()
    key = ("Tatami", "v1")  # API Gateway keys metrics by ApiName: the stack's name, not CDK's "Api"
    assert api["Properties"]["Name"] == "Tatami"
    (faults,), (errors,) = on(synthesized, "5XXError").items(), on(synthesized, "4XXError").items()
    (latency,) = on(synthesized, "Latency").items()
    assert faults[0] == errors[0] == latency[0] == key
    for (_, alarm), rate in ((faults, 0.05), (errors, 0.10)):
        assert (stats(alarm)[0]["Stat"], alarm["Threshold"]) == ("Average", rate)
        assert expression(alarm) == "IF(sampleCount > 50, metric)"  # no rate from a handful of requests
    assert faults[1]["AlarmName"].endswith("-Critical") and errors[1]["AlarmName"].endswith("-Warning")
    latency_stat = stats(latency[1])[0]
    assert (latency_stat["Stat"], latency_stat["Period"], latency[1]["Threshold"]) == ("p99", 900, 5000)


def test_the_lags_and_export_failures_alarm_on_the_metrics_the_functions_emit(
    synthesized: Synthesized,
) -> None:
    """In the stage's own namespace (the stack's name), which its functions are told to print to."""
    maintainers = _function_settings(synthesized, "zindex.lambda_handler.handler")
    assert len(maintainers) == 2  # places and orders
    assert set(on(synthesized, LAG_METRIC)) == set(on(synthesized, UNENCODABLE_METRIC)) == maintainers
    assert set(on(synthesized, ROLLUP_LAG)) == _function_settings(
        synthesized, "tatami_functions.counters.handler.rollup"
    )
    export = _function_settings(synthesized, "tatami_functions.olap.handler.handler")
    (failed,), (stale,) = on(synthesized, EXPORT_FAILURES).items(), on(synthesized, EXPORT_AGE).items()
    assert {failed[0]} == {stale[0]} == export
    assert (stats(failed[1])[0]["Stat"], failed[1]["Threshold"]) == ("Sum", 0)
    assert (stats(stale[1])[0]["Stat"], stale[1]["Threshold"]) == ("Maximum", 30 * 3600)  # a day and 6 hours
    namespaces = {
        f["Properties"]["Environment"]["Variables"]["POWERTOOLS_METRICS_NAMESPACE"]
        for f in synthesized.resources("AWS::Lambda::Function").values()
    }
    custom = [on(synthesized, name) for name in (LAG_METRIC, UNENCODABLE_METRIC, ROLLUP_LAG, EXPORT_FAILURES)]
    assert (
        namespaces
        == {"Tatami"}
        == {stats(a)[0]["Metric"]["Namespace"] for found in custom for a in found.values()}
    )


def test_the_export_schedule_alarms_when_it_cannot_invoke_and_parks_what_it_could_not(
    synthesized: Synthesized,
) -> None:
    (rule_id,) = synthesized.resources("AWS::Events::Rule")
    ((rule,), alarm) = next(iter(on(synthesized, "FailedInvocations").items()))
    assert rule == f"{STACK}:{rule_id}" and alarm["AlarmName"].endswith("-Critical")
    (target,) = synthesized.resources("AWS::Events::Rule")[rule_id]["Properties"]["Targets"]
    assert "DeadLetterConfig" in target and target["RetryPolicy"]["MaximumRetryAttempts"] == 2


def test_each_stack_stays_under_cloudformations_limits(synthesized: Synthesized) -> None:
    assert len(synthesized.template["Resources"]) < 450
    assert len(synthesized.monitoring["Resources"]) < 450  # 202 today: alarms, composites, dashboards
    monitoring = synthesized.cdk_out / "TatamiMonitoring.template.json"
    assert monitoring.stat().st_size < 800_000  # CloudFormation takes 1 MB; room for more services
