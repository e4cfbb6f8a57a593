"""DynamoDB Local numbers stream records across all tables, so an iterator opened on an empty shard
can point before the shard's first record once another stream exists (TrimmedDataAccessException).
The poller must re-open it and deliver every record, once."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest

from tatami.local.engines import processes as engines
from tatami.local.events.delivery import BatchDelivery, MappingStats
from tatami.local.events.streams import IDLE_POLL_SECONDS, StreamPoller
from tatami.local.functions.pool import Invocation
from tatami.local.template.assembly import StreamMappingSpec

SPEC = StreamMappingSpec(
    logical_id="M",
    function_id="F",
    table_id="A",
    batch_size=100,
    batching_window_seconds=0,
    starting_position="TRIM_HORIZON",
    filter_patterns=(),
    report_batch_item_failures=False,
    max_retries=0,
    max_record_age_seconds=-1,
    bisect_on_error=False,
    on_failure_queue_id=None,
)


def _streamed_table(client: Any, name: str) -> str:
    return client.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
    )["TableDescription"]["LatestStreamArn"]


def test_records_of_two_streamed_tables_reach_their_pollers(dynamodb_local: str) -> None:
    client, streams = engines.dynamodb_client(dynamodb_local), engines.streams_client(dynamodb_local)
    arns = {name: _streamed_table(client, f"Iter-{name}") for name in ("A", "B")}
    received: dict[str, list[str]] = {"A": [], "B": []}
    pollers = []
    for name, arn in arns.items():

        def invoke(event: dict[str, Any], name: str = name) -> Invocation:
            received[name] += [r["dynamodb"]["Keys"]["id"]["S"] for r in event["Records"]]
            return Invocation("id", True)

        delivery = BatchDelivery(SPEC, "arn", invoke, lambda _m: None, MappingStats(), lambda _l: None)
        pollers.append(StreamPoller(SPEC, streams, arn, delivery, poll_interval=0.05))
    for poller in pollers:
        poller.start()
    try:
        for n in range(3):
            client.put_item(TableName="Iter-B", Item={"id": {"S": f"b{n}"}})
            client.put_item(TableName="Iter-A", Item={"id": {"S": f"a{n}"}})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (len(received["A"]) < 3 or len(received["B"]) < 3):
            time.sleep(0.05)
    finally:
        for poller in pollers:
            poller.stop()
    assert received == {"A": ["a0", "a1", "a2"], "B": ["b0", "b1", "b2"]}


def test_the_backlog_counts_what_the_trigger_has_not_delivered(dynamodb_local: str) -> None:
    """What `tatami local status` reports per stream trigger: records buffered or still in the stream."""
    client, streams = engines.dynamodb_client(dynamodb_local), engines.streams_client(dynamodb_local)
    arn = _streamed_table(client, "Iter-Backlog")
    delivered: list[int] = []

    def invoke(event: dict[str, Any]) -> Invocation:
        delivered.append(len(event["Records"]))
        return Invocation("id", True)

    spec = dataclasses.replace(SPEC, batch_size=10)
    delivery = BatchDelivery(spec, "arn", invoke, lambda _m: None, MappingStats(), lambda _l: None)
    poller = StreamPoller(spec, streams, arn, delivery)  # not started: polled by hand below
    poller._refresh_shards("TRIM_HORIZON")
    for n in range(25):
        client.put_item(TableName="Iter-Backlog", Item={"id": {"S": f"k{n}"}})
    assert poller.backlog() == 25
    (shard,) = poller.shards.values()
    assert poller._poll(shard) and delivered == [10]  # one batch delivered, 15 read into the buffer
    assert poller.backlog() == 15
    while poller._poll(shard):
        pass
    assert sum(delivered) == 25 and poller.backlog() == 0


def test_a_batch_whose_delivery_broke_off_is_delivered_again(dynamodb_local: str) -> None:
    """A delivery that raises (not a function error: the local cloud's own machinery failing) must not
    lose the batch it had taken from the buffer: the next poll hands it over again."""
    client, streams = engines.dynamodb_client(dynamodb_local), engines.streams_client(dynamodb_local)
    arn = _streamed_table(client, "Iter-BrokenOff")
    delivered: list[str] = []
    attempts: list[int] = []

    def invoke(event: dict[str, Any]) -> Invocation:
        attempts.append(len(event["Records"]))
        if len(attempts) == 1:
            raise RuntimeError("the invocation machinery broke")
        delivered.extend(r["dynamodb"]["Keys"]["id"]["S"] for r in event["Records"])
        return Invocation("id", True)

    delivery = BatchDelivery(SPEC, "arn", invoke, lambda _m: None, MappingStats(), lambda _l: None)
    poller = StreamPoller(SPEC, streams, arn, delivery)  # not started: polled by hand below
    poller._refresh_shards("TRIM_HORIZON")
    for n in range(5):
        client.put_item(TableName="Iter-BrokenOff", Item={"id": {"S": f"k{n}"}})
    (shard,) = poller.shards.values()
    with pytest.raises(RuntimeError):
        poller._poll(shard)
    assert poller.backlog() == 5
    while poller._poll(shard):
        pass
    assert attempts == [5, 5] and delivered == [f"k{n}" for n in range(5)]


def test_an_idle_stream_is_polled_at_lambdas_rate_and_a_new_record_still_arrives_at_once(
    dynamodb_local: str,
) -> None:
    """Polled every 10 ms while busy, an idle stream backs off to IDLE_POLL_SECONDS (Lambda's four polls
    a second), so an idle cloud costs little; a record written then is delivered within one idle poll."""
    client, streams = engines.dynamodb_client(dynamodb_local), engines.streams_client(dynamodb_local)
    arn = _streamed_table(client, "Iter-Idle")
    polls: list[float] = []
    delivered: list[float] = []

    class CountedStreams:
        def __getattr__(self, name: str) -> Any:
            return getattr(streams, name)

        def get_records(self, **kwargs: Any) -> Any:
            polls.append(time.monotonic())
            return streams.get_records(**kwargs)

    def invoke(event: dict[str, Any]) -> Invocation:
        delivered.extend(time.monotonic() for _ in event["Records"])
        return Invocation("id", True)

    delivery = BatchDelivery(SPEC, "arn", invoke, lambda _m: None, MappingStats(), lambda _l: None)
    poller = StreamPoller(SPEC, CountedStreams(), arn, delivery, poll_interval=0.01)
    poller.start()
    try:
        time.sleep(3)
        idle_polls = [t for t in polls if t > polls[0] + 1]  # after its first second of backing off
        written = time.monotonic()
        client.put_item(TableName="Iter-Idle", Item={"id": {"S": "late"}})
        deadline = written + 5
        while not delivered and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        poller.stop()
    idle_seconds = written - (polls[0] + 1)
    assert len(idle_polls) <= idle_seconds / IDLE_POLL_SECONDS + 2  # at 10 ms it would be about 200
    # within one idle poll; the second beyond it is for a loaded machine's GetRecords and invocation
    assert delivered and delivered[0] - written < IDLE_POLL_SECONDS + 1.0
