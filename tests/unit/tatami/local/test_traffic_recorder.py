"""The recorder's botocore handlers: ask for consumed capacity, record the call, hide what was not asked."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from tatami.local.traffic import _Log, _Recorder


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
    recorder = _Recorder(_Log(tmp_path, "fn"))
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
    recorder = _Recorder(_Log(tmp_path, "cli"))
    parsed = {"ConsumedCapacity": {"TableName": "T", "CapacityUnits": 0.5}}
    call(recorder, "GetItem", {"TableName": "T", "ReturnConsumedCapacity": "TOTAL"}, parsed)
    assert parsed["ConsumedCapacity"]["CapacityUnits"] == 0.5
    call(recorder, "PutItem", {"TableName": "T"}, {"Error": {}}, status=400)
    lines = [line for path in tmp_path.iterdir() for line in path.read_text().splitlines()]
    assert [json.loads(line)["op"] for line in lines] == ["GetItem"]


def test_other_operations_pass_untouched(tmp_path: Path) -> None:
    recorder = _Recorder(_Log(tmp_path, "fn"))
    sent = {"TableName": "T"}
    call(recorder, "DescribeTable", sent, {"Table": {}})
    assert "ReturnConsumedCapacity" not in sent
    assert list(tmp_path.iterdir()) == []  # no record, not even an empty file
