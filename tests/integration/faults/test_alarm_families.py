"""The alarm families that tell what went wrong after the fact, each driven to ALARM and back to OK on the
local cloud: a stream mapping that stopped, a batch that could not be parked, a parked batch growing
old, an item the Z index left out, an export DynamoDB marked FAILED after it started. The clock is
moved ahead (5-minute and hourly periods, a mapping's 6-hour record age, SQS's 14 days)."""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
import uuid
from typing import Any

from tatami.local.cloud import LocalCloud
from tatami.local.engines import exports as local_exports
from tatami.local.engines import traffic
from tatami_functions import stack_outputs
from tatami_functions.common.metric_names import EXPORT_FAILURES
from tatami_functions.common.settings import PowertoolsSettings
from tatami_functions.olap.layout import STARTED, export_folder, new_export_id
from tests.support.alarms import alarm_on, next_period, seen, states
from tests.support.waiting import eventually
from zindex.lambda_handler import UNENCODABLE_METRIC

HOUR, DAY = 3600, 86_400


def _function(cloud: LocalCloud, prefix: str) -> str:
    (found,) = [logical_id for logical_id in cloud.assembly.functions if logical_id.startswith(prefix)]
    return found


def _place(cloud: LocalCloud) -> None:
    """A place written as the app writes (its calls recorded with the capacity they consumed)."""
    client = traffic.attach(cloud.client("dynamodb"), cloud.traffic_dir, "test")
    place = {"id": {"S": f"q-{uuid.uuid4().hex[:8]}"}, "name": {"S": "Quietville"}, "population": {"N": "5"}}
    client.put_item(TableName=cloud.outputs[stack_outputs.OUTPUT_PLACES_TABLE], Item=place)


def test_a_stopped_stream_mapping_raises_its_alarm_until_it_runs_again(faulty_cloud: LocalCloud) -> None:
    """No iterator age is reported by a mapping that stops: its table's writes without an invocation are
    the sign (a Critical alarm, two periods running)."""
    maintainer = _function(faulty_cloud, "PlacesZIndexMaintainer")
    name = faulty_cloud.assembly.functions[maintainer].name
    stopped = alarm_on(faulty_cloud, "Invocations", FunctionName=name)
    next_period(faulty_cloud)
    with faulty_cloud.stalled_trigger(maintainer):
        _place(faulty_cloud)
        next_period(faulty_cloud)
        assert states(faulty_cloud, stopped) == {stopped: "OK"}  # one period is not yet a standstill
        _place(faulty_cloud)
        next_period(faulty_cloud)
        assert states(faulty_cloud, stopped) == {stopped: "ALARM"}
    next_period(faulty_cloud)  # released: the records are delivered (next_period waits for that)
    assert states(faulty_cloud, stopped) == {stopped: "OK"}


def _failure_queue(cloud: LocalCloud, function_id: str) -> tuple[str, str]:
    """The on-failure queue of the function's mapping: (name, URL)."""
    (mapping,) = [m for m in cloud.assembly.stream_mappings if m.function_id == function_id]
    assert mapping.on_failure_queue_id
    queue_id = mapping.on_failure_queue_id
    return cloud.assembly.queues[queue_id], cloud.resolver.refs[queue_id]


def _give_up_on_a_batch(cloud: LocalCloud, function_id: str) -> None:
    """A write whose record waits past its mapping's maximum record age (6 hours): given up on."""
    (mapping,) = [m for m in cloud.assembly.stream_mappings if m.function_id == function_id]
    (poller,) = [p for p in cloud.pollers if p.spec.function_id == function_id]
    discarded = cloud.stream_stats[mapping.logical_id].records_discarded
    table = next(t.name for t in cloud.assembly.tables if t.logical_id == mapping.table_id)
    with cloud.stalled_trigger(function_id):
        key = next(t for t in cloud.assembly.tables if t.logical_id == mapping.table_id).key_attributes
        item = {attribute: {"S": f"aged-{uuid.uuid4().hex[:8]}"} for attribute in key}
        cloud.client("dynamodb").put_item(TableName=table, Item=item)
        assert eventually(lambda: any(shard.buffer for shard in poller.shards.values()))
        cloud.clock.advance(mapping.max_record_age_seconds + 60)
    assert eventually(
        lambda: cloud.stream_stats[mapping.logical_id].records_discarded > discarded, timeout=60
    )


def test_a_batch_that_cannot_be_parked_raises_the_delivery_failures_alarm(faulty_cloud: LocalCloud) -> None:
    maintainer = _function(faulty_cloud, "OrdersModelZIndexMaintainer")
    name = faulty_cloud.assembly.functions[maintainer].name
    failed = alarm_on(faulty_cloud, "DestinationDeliveryFailures", FunctionName=name)
    queue, url = _failure_queue(faulty_cloud, maintainer)
    sqs = faulty_cloud.client("sqs")
    next_period(faulty_cloud)
    sqs.delete_queue(QueueUrl=url)  # the failure queue is gone
    try:
        _give_up_on_a_batch(faulty_cloud, maintainer)
        assert eventually(
            lambda: seen(faulty_cloud, "AWS/Lambda", "DestinationDeliveryFailures", FunctionName=name)
        )
    finally:
        sqs.create_queue(QueueName=queue)
    next_period(faulty_cloud)
    assert states(faulty_cloud, failed) == {failed: "ALARM"}
    next_period(faulty_cloud)
    assert states(faulty_cloud, failed) == {failed: "OK"}


def test_a_parked_batch_pages_once_then_warns_before_sqs_would_delete_it(faulty_cloud: LocalCloud) -> None:
    maintainer = _function(faulty_cloud, "OrdersModelZIndexMaintainer")
    queue, url = _failure_queue(faulty_cloud, maintainer)
    parked = alarm_on(faulty_cloud, "NumberOfMessagesSent", QueueName=queue)
    expiring = alarm_on(faulty_cloud, "ApproximateAgeOfOldestMessage", QueueName=queue)
    next_period(faulty_cloud)
    _give_up_on_a_batch(faulty_cloud, maintainer)
    assert eventually(lambda: _depth(faulty_cloud, url) > 0)
    states(faulty_cloud, parked)  # sampled within the period it arrived in
    next_period(faulty_cloud)
    assert states(faulty_cloud, parked, expiring) == {parked: "ALARM", expiring: "OK"}
    faulty_cloud.clock.advance(10 * DAY)  # nobody replays it
    states(faulty_cloud, expiring)
    next_period(faulty_cloud)
    assert states(faulty_cloud, parked, expiring) == {parked: "OK", expiring: "ALARM"}
    faulty_cloud.client("sqs").purge_queue(QueueUrl=url)  # replayed, then deleted
    next_period(faulty_cloud)  # the period it was deleted in may still have seen it, sampled before
    next_period(faulty_cloud)
    assert states(faulty_cloud, expiring) == {expiring: "OK"}


def _depth(cloud: LocalCloud, url: str) -> int:
    attributes = cloud.client("sqs").get_queue_attributes(
        QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"]
    )
    return int(attributes["Attributes"]["ApproximateNumberOfMessages"])


def test_an_item_the_z_index_cannot_encode_raises_its_alarm(faulty_cloud: LocalCloud) -> None:
    unencodable = alarm_on(faulty_cloud, UNENCODABLE_METRIC, service="places")
    maintainer = faulty_cloud.assembly.functions[_function(faulty_cloud, "PlacesZIndexMaintainer")]
    namespace = maintainer.environment[PowertoolsSettings.name_of("metrics_namespace")]  # the stack's name
    before = len(seen(faulty_cloud, namespace, UNENCODABLE_METRIC, service="places"))
    next_period(faulty_cloud)
    places = faulty_cloud.outputs[stack_outputs.OUTPUT_PLACES_TABLE]
    item = {"id": {"S": f"north-of-north-{uuid.uuid4().hex[:6]}"}, "latitude": {"N": "200"}}  # past 90
    every = {**item, "longitude": {"N": "0"}, "population": {"N": "5"}}  # lacking one, it is just not indexed
    faulty_cloud.client("dynamodb").put_item(TableName=places, Item=every)
    assert eventually(
        lambda: len(seen(faulty_cloud, namespace, UNENCODABLE_METRIC, service="places")) > before
    )
    next_period(faulty_cloud)
    assert states(faulty_cloud, unencodable) == {unencodable: "ALARM"}
    next_period(faulty_cloud)
    assert states(faulty_cloud, unencodable) == {unencodable: "OK"}


def test_an_export_dynamodb_marks_failed_after_it_started_raises_the_export_alarm(
    faulty_cloud: LocalCloud,
) -> None:
    """The export's call returned (AWS answers IN_PROGRESS); later its process died, so describing it
    says FAILED. The next scheduled run counts it once: its hour is in ALARM, the next hour OK."""
    export = _function(faulty_cloud, "OlapExportFunction")
    failed = alarm_on(faulty_cloud, EXPORT_FAILURES, service="olap")
    next_period(faulty_cloud, HOUR)
    _started_by_a_process_now_gone(faulty_cloud, "orders")
    invocation = faulty_cloud.invoke(export, {"tables": ["orders"], "id": uuid.uuid4().hex})
    assert invocation.ok, invocation.error
    next_period(faulty_cloud, HOUR)
    assert states(faulty_cloud, failed) == {failed: "ALARM"}
    next_period(faulty_cloud, HOUR)
    assert states(faulty_cloud, failed) == {failed: "OK"}


def _started_by_a_process_now_gone(cloud: LocalCloud, key: str) -> None:
    """An export of `key` in the local export API's records, IN_PROGRESS by a process that died, and
    its folder in the bucket, as a killed export leaves them."""
    table_arn: str = json.loads(cloud.outputs[stack_outputs.OUTPUT_OLAP_TABLES])[key]
    export_id = new_export_id(time.time())
    gone = subprocess.Popen(["true"])
    gone.wait()  # its pid now names no process
    started: dict[str, Any] = {
        "ExportArn": f"{table_arn}/export/{export_id}",
        "ExportStatus": "IN_PROGRESS",
        "StartTime": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
        "pid": gone.pid,
    }
    s3 = cloud.client("s3")
    with contextlib.suppress(s3.exceptions.BucketAlreadyOwnedByYou):  # an export made it already
        s3.create_bucket(Bucket=local_exports.REGISTRY)
    s3.put_object(Bucket=local_exports.REGISTRY, Key=f"exports/{export_id}", Body=json.dumps(started))
    bucket = cloud.outputs[stack_outputs.OUTPUT_OLAP_BUCKET]
    s3.put_object(Bucket=bucket, Key=f"{export_folder(f'exports/{key}', export_id)}/{STARTED}", Body=b"")
