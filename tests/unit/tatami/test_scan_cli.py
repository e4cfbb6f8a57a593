"""`tatami scan` on an in-memory table (no network): counts, exports, resumes exactly, explains errors.

The fake client splits the items into segments and pages as DynamoDB does (each segment a disjoint
share, a LastEvaluatedKey per page); DynamoDB Local runs the same command in
tests/integration/tatami/test_scan_cli_dynamodb.py.
"""

from __future__ import annotations

import base64
import importlib
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError
from click.testing import CliRunner

from tatami.scan import Checkpoint, parallel_scan
from tatami.target import Target

# The package re-exports the click command under the module's own name: fetch the module itself.
command = importlib.import_module("tatami.commands.scan")

ITEMS = [
    {"PK": {"B": n.to_bytes(2, "big")}, "n": {"N": str(n)}, "name": {"S": f"item {n}"}, "tags": {"SS": ["a"]}}
    for n in range(1000)
]


class FakeClient:
    """DynamoDB's Scan over a list: segment = position modulo TotalSegments, pages of `Limit`."""

    def __init__(self, items: list[dict[str, Any]], interrupt_after: int | None = None) -> None:
        self.items, self.interrupt_after, self.calls = items, interrupt_after, 0
        self.lock = threading.Lock()

    def describe_table(self, TableName: str) -> dict[str, Any]:
        if TableName != "Tatami-Logfile":
            error = {"Error": {"Code": "ResourceNotFoundException", "Message": "not found"}}
            raise ClientError(error, "DescribeTable")
        return {"Table": {"ItemCount": len(self.items)}}

    def scan(self, **request: Any) -> dict[str, Any]:
        with self.lock:
            self.calls += 1
            if self.interrupt_after is not None and self.calls > self.interrupt_after:
                raise KeyboardInterrupt
        share = self.items[request["Segment"] :: request["TotalSegments"]]
        start = 0
        if "ExclusiveStartKey" in request:
            after = request["ExclusiveStartKey"]["PK"]
            start = 1 + next(i for i, item in enumerate(share) if item["PK"] == after)
        page = share[start : start + request.get("Limit", 100)]
        response: dict[str, Any] = {"Count": len(page), "ConsumedCapacity": {"CapacityUnits": len(page) / 8}}
        if request.get("Select") != "COUNT":
            response["Items"] = page
        if start + len(page) < len(share):
            response["LastEvaluatedKey"] = {"PK": page[-1]["PK"]}
        return response


class FakeTarget(Target):
    def client(self, service: str) -> Any:
        return self.extra["client"]


@pytest.fixture
def client(monkeypatch: pytest.MonkeyPatch) -> FakeClient:
    fake = FakeClient(ITEMS)
    target = FakeTarget("local", {"LogfileTableName": "Tatami-Logfile"}, "http://x", extra={"client": fake})
    monkeypatch.setattr(command, "resolve_target", lambda local: target)
    return fake


def run(tmp_path: Path, *args: str) -> Any:
    checkpoint = ["--checkpoint", str(tmp_path / "count.json")] if "--output" not in args else []
    return CliRunner().invoke(command.scan, [*args, "--local", "--no-progress", *checkpoint])


def keys(lines: list[str]) -> list[int]:
    encoded = [json.loads(line)["Item"]["PK"]["B"] for line in lines]
    return sorted(int.from_bytes(base64.b64decode(key), "big") for key in encoded)


def test_counting_with_segments(client: FakeClient, tmp_path: Path) -> None:
    result = run(tmp_path, "Logfile", "--segments", "8", "--page-size", "50")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Tatami-Logfile: 1,000 items\n1,000 items in 24 pages over 8 segments")


def test_an_export_in_dynamodb_json(client: FakeClient, tmp_path: Path) -> None:
    output = tmp_path / "logfile.jsonl"
    result = run(tmp_path, "LogfileTableName", "--output", str(output), "--page-size", "64")
    assert result.exit_code == 0, result.output
    lines = output.read_text().splitlines()
    assert keys(lines) == list(range(1000))
    assert json.loads(lines[0])["Item"]["name"]["S"].startswith("item ")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["logfile.jsonl"]  # no parts, no checkpoint


def test_an_export_in_plain_json(client: FakeClient, tmp_path: Path) -> None:
    output = tmp_path / "plain.jsonl"
    assert run(tmp_path, "Logfile", "--output", str(output), "--plain").exit_code == 0
    first = json.loads(output.read_text().splitlines()[0])
    assert set(first) == {"PK", "n", "name", "tags"}
    assert isinstance(first["n"], int) and first["tags"] == ["a"]


def test_an_interrupted_export_resumes_without_losing_or_repeating_items(
    client: FakeClient, tmp_path: Path
) -> None:
    output = tmp_path / "resumed.jsonl"
    client.interrupt_after = 9
    options = ["--output", str(output), "--page-size", "40", "--segments", "4"]
    interrupted = run(tmp_path, "Logfile", *options)
    assert interrupted.exit_code != 0 and not output.exists()
    saved = json.loads((tmp_path / "resumed.jsonl.checkpoint.json").read_text())
    assert saved["keys"] and all("__b64" in str(key) or key == "done" for key in saved["keys"].values())
    client.interrupt_after = None
    resumed = run(tmp_path, "Logfile", *options, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert keys(output.read_text().splitlines()) == list(range(1000))  # each item exactly once
    assert "counted before resuming" in resumed.output


def test_a_page_written_but_never_checkpointed_is_cut_on_resume(
    client: FakeClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    output, record, calls = tmp_path / "cut.jsonl", Checkpoint.record, []

    def crash_on_the_seventh(self: Checkpoint, segment: int, key: Any, items: int = 0) -> None:
        calls.append(segment)
        if len(calls) == 7:
            raise KeyboardInterrupt  # the page is in its part file; the checkpoint never hears of it
        record(self, segment, key, items)

    monkeypatch.setattr(Checkpoint, "record", crash_on_the_seventh)
    options = ["--output", str(output), "--page-size", "30", "--segments", "3"]
    assert run(tmp_path, "Logfile", *options).exit_code != 0
    monkeypatch.setattr(Checkpoint, "record", record)
    assert run(tmp_path, "Logfile", *options, "--resume").exit_code == 0
    assert keys(output.read_text().splitlines()) == list(range(1000))


def test_a_resumed_count_adds_what_was_counted_before(client: FakeClient, tmp_path: Path) -> None:
    client.interrupt_after = 5
    assert run(tmp_path, "Logfile", "--page-size", "100", "--segments", "2").exit_code != 0
    client.interrupt_after = None
    result = run(tmp_path, "Logfile", "--page-size", "100", "--segments", "2", "--resume")
    assert result.output.startswith("Tatami-Logfile: 1,000 items ("), result.output


def test_errors_name_what_to_fix(client: FakeClient, tmp_path: Path) -> None:
    missing = run(tmp_path, "Nothing")
    assert missing.exit_code == 1
    assert "no table Nothing on local; table outputs: LogfileTableName" in missing.output
    both = run(tmp_path, "Logfile", "--count-only", "--output", str(tmp_path / "x.jsonl"))
    assert both.exit_code == 2 and "--count-only and --output exclude each other" in both.output
    assert run(tmp_path, "Logfile", "--segments", "0").exit_code == 2


def test_an_interruption_stops_every_segment_after_its_current_page(tmp_path: Path) -> None:
    fake = FakeClient(ITEMS, interrupt_after=3)  # 4 segments x 5 pages of 50 without the interruption
    checkpoint = Checkpoint.open(tmp_path / "scan.json", "Tatami-Logfile", 4)
    with pytest.raises(KeyboardInterrupt):
        parallel_scan(
            fake, "Tatami-Logfile", 4, lambda segment, items: None, checkpoint=checkpoint, page_size=50
        )
    assert fake.calls <= 3 + 4 + 1  # the pages in flight end, no segment starts another
    parallel_scan(FakeClient(ITEMS), "Tatami-Logfile", 4, lambda s, i: None, checkpoint=checkpoint)
    assert sum(checkpoint.counts.values()) == len(ITEMS)  # resumed: every item counted once over both runs
