"""The template's alarms on the app's local cloud, each family driven to ALARM by its fault and back to
OK: a poison record parked in a failure queue, and stalled stream consumers (the Z index's maintainer
and the counters' roll-up). The clock is moved ahead instead of waiting out the 5-minute periods."""

from __future__ import annotations

import uuid
from typing import Any

import requests

from tatami.local.cloud import LocalCloud
from tatami_functions import stack_outputs
from tatami_functions.common.metric_names import ROLLUP_LAG
from tatami_functions.counters.table import SHARDS
from tests.integration.counters.cloud_helpers import create, increment
from tests.support.alarms import alarm_on, next_period, seen, states
from tests.support.waiting import eventually
from zindex.lambda_handler import LAG_METRIC


def _function(cloud: LocalCloud, prefix: str) -> str:
    (found,) = [logical_id for logical_id in cloud.assembly.functions if logical_id.startswith(prefix)]
    return found


def _name(cloud: LocalCloud, prefix: str) -> str:
    return cloud.assembly.functions[_function(cloud, prefix)].name


def test_a_poison_record_in_a_failure_queue_raises_its_alarm_until_the_queue_is_drained(
    app_cloud: LocalCloud,
) -> None:
    sqs, queue = app_cloud.client("sqs"), app_cloud.outputs[stack_outputs.OUTPUT_COUNTER_ROLLUP_FAILURES]
    parked = alarm_on(app_cloud, "ApproximateNumberOfMessagesVisible", QueueName=queue.rsplit("/", 1)[1])
    failing = alarm_on(app_cloud, "Errors", FunctionName=_name(app_cloud, "CountersRollupFunction"))
    next_period(app_cloud)
    discarded = _discarded(app_cloud)
    # A shard record the roll-up cannot parse: its retries fail, then Lambda parks it in the queue.
    shards = app_cloud.outputs[stack_outputs.OUTPUT_COUNTER_SHARDS_TABLE]
    app_cloud.client("dynamodb").put_item(
        TableName=shards, Item={SHARDS.partition_key.name: {"S": f"poison-{uuid.uuid4().hex}"}}
    )
    assert eventually(lambda: _discarded(app_cloud) > discarded, timeout=60)
    assert eventually(lambda: _depth(sqs, queue) > 0)
    states(app_cloud, parked)  # the depth is sampled within this period
    next_period(app_cloud)
    assert states(app_cloud, parked, failing) == {parked: "ALARM", failing: "ALARM"}
    while messages := sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10).get("Messages"):
        for message in messages:  # an operator replays or discards what was parked
            sqs.delete_message(QueueUrl=queue, ReceiptHandle=message["ReceiptHandle"])
    next_period(app_cloud)  # the period the queue was drained in still saw it hold a message
    next_period(app_cloud)
    assert states(app_cloud, parked, failing) == {parked: "OK", failing: "OK"}


def test_stalled_stream_consumers_raise_iterator_age_and_lag_alarms_until_they_catch_up(
    app_cloud: LocalCloud,
) -> None:
    consumers = [_function(app_cloud, "PlacesZIndexMaintainer"), _function(app_cloud, "CountersRollup")]
    watched = [
        *(alarm_on(app_cloud, "IteratorAge", FunctionName=_name(app_cloud, c)) for c in consumers),
        alarm_on(app_cloud, LAG_METRIC, service="places"),
        alarm_on(app_cloud, ROLLUP_LAG, service="counters"),
    ]
    pollers = [p for p in app_cloud.pollers if p.spec.function_id in consumers]
    counter = create(app_cloud, "stalled")
    next_period(app_cloud)
    with app_cloud.stalled_trigger(consumers[0]), app_cloud.stalled_trigger(consumers[1]):
        _write(app_cloud, counter)
        assert eventually(lambda: all(any(s.buffer for s in p.shards.values()) for p in pollers))
        app_cloud.clock.advance(600)  # ten minutes pass while the records wait
    assert eventually(lambda: max(seen(app_cloud, "Tatami", LAG_METRIC, service="places"), default=0) >= 600)
    assert eventually(
        lambda: max(seen(app_cloud, "Tatami", ROLLUP_LAG, service="counters"), default=0) >= 600
    )
    next_period(app_cloud)
    assert set(states(app_cloud, *watched).values()) == {"ALARM"}, app_cloud.alarm_states()[:4]
    delivered = [poller.delivery.stats.invocations for poller in pollers]
    _write(app_cloud, counter)  # caught up: new records are read and delivered at once
    assert eventually(
        lambda: all(p.delivery.stats.invocations > n for p, n in zip(pollers, delivered, strict=True))
    )
    next_period(app_cloud)
    assert set(states(app_cloud, *watched).values()) == {"OK"}, app_cloud.alarm_states()[:4]


def _discarded(cloud: LocalCloud) -> int:
    """The records the roll-up's trigger gave up on (and parked)."""
    (mapping,) = [m for m in cloud.assembly.stream_mappings if m.function_id.startswith("CountersRollup")]
    return cloud.stream_stats[mapping.logical_id].records_discarded


def _depth(sqs: Any, queue: str) -> int:
    attributes = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["ApproximateNumberOfMessages"])
    return int(attributes["Attributes"]["ApproximateNumberOfMessages"])


def _write(cloud: LocalCloud, counter: str) -> None:
    place = {"name": "Stallton", "latitude": 10.0, "longitude": 20.0, "population": 5}
    assert requests.put(f"{cloud.api_url}/places/stall-{uuid.uuid4().hex[:8]}", json=place, timeout=30).ok
    assert increment(cloud, counter).ok
