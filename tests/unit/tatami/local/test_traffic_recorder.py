"""The recorder's botocore handlers: ask for consumed capacity, record the call, hide what was not asked."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from tatami.local.engines.traffic import THROTTLED_DIR, _Recorder


def call(recorder: _Recorder, op: str, params: dict, parsed: dict, status: int = 200) -> dict:
    context: dict = {}
    model = SimpleNamespace(name=op)
    recorder.ask(params=params, model=model, context=context)
    recorder.keep(params={"body": json.dumps(params).encode()}, context=context)
    recorder.record(
        http_response=SimpleNamespace(status_code=status), parsed=parsed, model=model, context=context
    )
    return params


def test_a_call_is_recorded_with_its_capacity_and_the_caller_sees_what_it_asked(tmp_path: Path) -> None:
    recorder = _Recorder(tmp_path, "fn")
    sent = {"TableName": "T", "Key": {"pk": {"S": "a"}}}
    parsed = {"ConsumedCapacity": {"TableName": "T", "CapacityUnits": 1.0}}
    call(recorder, "UpdateItem", sent, parsed)
    assert sent["ReturnConsumedCapacity"] == "INDEXES"  # asked for on the caller's behalf ...
    assert "ConsumedCapacity" not in parsed  # ... and hidden again
    (line,) = (tmp_path / next(p.name for p in tmp_path.iterdir())).read_text().splitlines()
    record = json.loads(line)
    assert (record["op"], record["src"], record["cc"]["CapacityUnits"]) == ("UpdateItem", "fn", 1.0)
    assert record["req"]["Key"] == {"pk": {"S": "a"}}


def test_a_caller_that_asked_keeps_its_answer_and_errors_are_not_recorded(tmp_path: Path) -> None:
    recorder = _Recorder(tmp_path, "cli")
    parsed = {"ConsumedCapacity": {"TableName": "T", "CapacityUnits": 0.5}}
    call(recorder, "GetItem", {"TableName": "T", "ReturnConsumedCapacity": "TOTAL"}, parsed)
    assert parsed["ConsumedCapacity"]["CapacityUnits"] == 0.5
    call(recorder, "PutItem", {"TableName": "T"}, {"Error": {}}, status=400)
    lines = [line for path in tmp_path.iterdir() for line in path.read_text().splitlines()]
    assert [json.loads(line)["op"] for line in lines] == ["GetItem"]


def test_other_operations_pass_untouched(tmp_path: Path) -> None:
    recorder = _Recorder(tmp_path, "fn")
    sent = {"TableName": "T"}
    call(recorder, "DescribeTable", sent, {"Table": {}})
    assert "ReturnConsumedCapacity" not in sent
    assert list(tmp_path.iterdir()) == []  # no record, not even an empty file


def test_every_throttled_attempt_is_logged_apart_from_the_calls(tmp_path: Path) -> None:
    """The SDK retries a throttled request; each attempt is one throttle event for DynamoDB's metrics,
    and none of them is a call for the capacity model's replay."""
    recorder = _Recorder(tmp_path, "fn")
    context: dict = {}
    params = {"TableName": "T", "IndexName": "by-x"}
    recorder.ask(params=params, model=SimpleNamespace(name="Query"), context=context)
    recorder.keep(params={"body": json.dumps(params).encode()}, context=context)
    throttled = {"Error": {"Code": "ProvisionedThroughputExceededException"}}
    for answer, status in (
        (throttled, 400),
        (throttled, 400),
        ({"Error": {"Code": "ValidationException"}}, 400),
    ):
        recorder.throttled(
            response_dict={"status_code": status},
            parsed_response=answer,
            context=context,
            event_name="response-received.dynamodb.Query",
        )
    recorder.throttled(response_dict=None, parsed_response=None, context=context, event_name="x.Query")
    lines = (tmp_path / THROTTLED_DIR).glob("*.jsonl")
    records = [json.loads(line) for path in lines for line in path.read_text().splitlines()]
    assert [(r["op"], r["req"]["IndexName"], r["error"]) for r in records] == [
        ("Query", "by-x", "ProvisionedThroughputExceededException")
    ] * 2
    assert not list(tmp_path.glob("*.jsonl"))  # the replayed traffic holds calls only
