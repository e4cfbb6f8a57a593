"""tatami/local/cloudwatch/metric_sources.py and metrics.py: what the local cloud publishes, on its clock."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tatami.local.cloudwatch import metrics as store_module
from tatami.local.cloudwatch.metric_sources import CloudMetrics, emf_datapoints, throttle_datapoints
from tatami.local.cloudwatch.metrics import RETENTION_SECONDS, LocalClock, MetricStore
from tatami.local.functions.pool import Invocation

EVER = (0.0, float("inf"))


@pytest.fixture
def metrics() -> CloudMetrics:
    return CloudMetrics(MetricStore(LocalClock()))


def test_an_emf_line_publishes_each_metric_under_each_dimension_set() -> None:
    line = json.dumps(
        {
            "_aws": {
                "Timestamp": 1,
                "CloudWatchMetrics": [
                    {"Namespace": "Tatami", "Dimensions": [["service"], []], "Metrics": [{"Name": "Lag"}]}
                ],
            },
            "service": "places",
            "Lag": [3.0, 4.5],
        }
    )
    assert emf_datapoints(line) == [
        ("Tatami", "Lag", {"service": "places"}, 3.0),
        ("Tatami", "Lag", {"service": "places"}, 4.5),
        ("Tatami", "Lag", {}, 3.0),
        ("Tatami", "Lag", {}, 4.5),
    ]
    assert emf_datapoints('{"message": "_aws"}') == emf_datapoints('{"_aws": oops') == []


def test_a_throttled_batch_or_transaction_is_an_event_per_table() -> None:
    batch = {"op": "BatchWriteItem", "req": {"RequestItems": {"A": [], "B": []}}}
    events = [(name, d) for _, name, d, _ in throttle_datapoints(batch) if name.endswith("Events")]
    assert events == [
        ("WriteThrottleEvents", {"TableName": "A"}),
        ("WriteThrottleEvents", {"TableName": "B"}),
    ]
    transaction = {"op": "TransactWriteItems", "req": {"TransactItems": [{"Update": {"TableName": "C"}}]}}
    assert (
        "AWS/DynamoDB",
        "ThrottledRequests",
        {"TableName": "C", "Operation": "TransactWriteItems"},
        1.0,
    ) in (throttle_datapoints(transaction))


def test_throttles_are_read_once_and_a_line_being_written_waits(
    metrics: CloudMetrics, tmp_path: Path
) -> None:
    log = tmp_path / "1-fn.jsonl"
    first = json.dumps({"t": 100.0, "op": "PutItem", "req": {"TableName": "T"}})
    log.write_text(first + "\n" + first[:10])
    metrics.read_throttles(tmp_path)
    metrics.read_throttles(tmp_path)
    assert metrics.store.values("AWS/DynamoDB", "WriteThrottleEvents", {"TableName": "T"}, *EVER) == [1.0]
    with log.open("a") as file:
        file.write(first[10:] + "\n")
    metrics.read_throttles(tmp_path)
    assert (
        metrics.store.values("AWS/DynamoDB", "WriteThrottleEvents", {"TableName": "T"}, 99, 101) == [1.0] * 2
    )


def test_invocations_and_api_answers(metrics: CloudMetrics) -> None:
    metrics.invocation("fn", Invocation("r1", True, duration_ms=12.0))
    metrics.invocation("fn", Invocation("r2", False, error={"errorType": "KeyError"}, duration_ms=3.0))
    assert metrics.store.values("AWS/Lambda", "Errors", {"FunctionName": "fn"}, *EVER) == [0.0, 1.0]
    for status in (200, 404, 502):
        metrics.api_response("Api", "v1", status, 5.0)
    staged = {"ApiName": "Api", "Stage": "v1"}
    assert metrics.store.values("AWS/ApiGateway", "5XXError", staged, *EVER) == [0.0, 0.0, 1.0]
    assert metrics.store.values("AWS/ApiGateway", "4XXError", {"ApiName": "Api"}, *EVER) == [0.0, 1.0, 0.0]


def test_datapoints_are_stamped_on_the_clock_and_kept_for_the_retention(metrics: CloudMetrics) -> None:
    clock, store = metrics.store.clock, metrics.store
    metrics.iterator_age("fn", 2.5)
    clock.advance(RETENTION_SECONDS + 1)
    metrics.iterator_age("fn", 1.0)
    assert store.values("AWS/Lambda", "IteratorAge", {"FunctionName": "fn"}, *EVER) == [
        1000.0
    ]  # the old one went
    with pytest.raises(ValueError, match="forward"):
        clock.advance(-1)


def test_a_metric_keeps_its_newest_datapoints(monkeypatch: pytest.MonkeyPatch, metrics: CloudMetrics) -> None:
    monkeypatch.setattr(store_module, "MAX_DATAPOINTS", 3)
    for n in range(5):
        metrics.store.put("Tatami", "Lag", {}, n, at=float(n))
    assert metrics.store.values("Tatami", "Lag", {}, *EVER) == [2.0, 3.0, 4.0]


def test_the_capacity_recorded_calls_consumed_is_published_per_table(
    metrics: CloudMetrics, tmp_path: Path
) -> None:
    """The writes a stopped stream consumer's alarm compares with its invocations."""
    put = {
        "t": 100.0,
        "op": "PutItem",
        "cc": {"TableName": "T", "CapacityUnits": 3.0, "Table": {"CapacityUnits": 1.0}},
    }
    batch = {
        "t": 101.0,
        "op": "BatchWriteItem",
        "cc": [{"TableName": "T", "CapacityUnits": 2.0}, {"TableName": "U"}],
    }
    query = {"t": 102.0, "op": "Query", "cc": {"TableName": "T", "CapacityUnits": 0.5}}
    (tmp_path / "1-fn.jsonl").write_text("".join(json.dumps(r) + "\n" for r in (put, batch, query)))
    metrics.read_traffic(tmp_path)
    metrics.read_traffic(tmp_path)  # read once
    written = metrics.store.values("AWS/DynamoDB", "ConsumedWriteCapacityUnits", {"TableName": "T"}, *EVER)
    assert written == [1.0, 2.0]  # the table's own units (its indexes' are not alarmed on)
    assert metrics.store.values(
        "AWS/DynamoDB", "ConsumedReadCapacityUnits", {"TableName": "T"}, 102, 103
    ) == [0.5]


def test_a_failed_delivery_to_the_failure_queue_is_counted(metrics: CloudMetrics) -> None:
    metrics.delivery_failed("fn")
    assert metrics.store.values(
        "AWS/Lambda", "DestinationDeliveryFailures", {"FunctionName": "fn"}, *EVER
    ) == [1.0]


def test_a_time_read_from_the_machine_is_placed_on_the_clock_as_it_read_then(metrics: CloudMetrics) -> None:
    clock = metrics.store.clock
    before = clock.now()
    clock.advance(3600)
    assert clock.reading_at(before) == pytest.approx(before)  # the hour skipped came after it
    assert clock.reading_at(clock.now() - 3600) == pytest.approx(clock.now(), abs=0.5)
