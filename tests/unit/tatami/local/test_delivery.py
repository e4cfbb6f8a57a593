"""tatami/local/events/delivery.py: Lambda's retry, bisect and partial-failure rules for stream batches."""

import time
from dataclasses import replace

import pytest

from tatami.local.cloudwatch.metrics import LocalClock
from tatami.local.events.delivery import BatchDelivery, MappingStats
from tatami.local.functions.pool import Invocation
from tatami.local.template.assembly import StreamMappingSpec

SPEC = StreamMappingSpec(
    logical_id="Mapping",
    function_id="Fn",
    table_id="Table",
    batch_size=10,
    batching_window_seconds=0,
    starting_position="TRIM_HORIZON",
    filter_patterns=(),
    report_batch_item_failures=False,
    max_retries=2,
    max_record_age_seconds=-1,
    bisect_on_error=True,
    on_failure_queue_id="Queue",
)


def record(n: int, poison: bool = False, age: float = 0) -> dict:
    image = {"id": {"S": f"r{n}"}, **({"poison": {"BOOL": True}} if poison else {})}
    return {
        "eventName": "INSERT",
        "eventSourceARN": "arn:stream",
        "dynamodb": {
            "SequenceNumber": f"{n:021d}",
            "ApproximateCreationDateTime": int(time.time() - age),
            "Keys": {"id": {"S": f"r{n}"}},
            "NewImage": image,
        },
    }


class Harness:
    """A fake function: fails whole batches holding a poisoned record (or reports them partially)."""

    def __init__(self, spec: StreamMappingSpec, partial: bool = False) -> None:
        self.calls: list[list[str]] = []
        self.processed: list[str] = []
        self.discarded: list[dict] = []
        self.partial = partial
        self.delivery = BatchDelivery(
            spec, "arn:fn", self.invoke, self.discarded.append, MappingStats(), lambda _line: None
        )

    def invoke(self, event: dict) -> Invocation:
        records = event["Records"]
        self.calls.append([r["dynamodb"]["Keys"]["id"]["S"] for r in records])
        poisoned = [r for r in records if "poison" in r["dynamodb"]["NewImage"]]
        if self.partial:
            self.processed += [r["dynamodb"]["Keys"]["id"]["S"] for r in records if r not in poisoned]
            failures = [{"itemIdentifier": r["dynamodb"]["SequenceNumber"]} for r in poisoned]
            return Invocation("id", True, result={"batchItemFailures": failures})
        if poisoned:
            return Invocation("id", False, error={"errorType": "ValueError", "errorMessage": "poison"})
        self.processed += [r["dynamodb"]["Keys"]["id"]["S"] for r in records]
        return Invocation("id", True, result=None)


def test_clean_batch_is_delivered_once() -> None:
    harness = Harness(SPEC)
    harness.delivery.deliver("shard", [record(n) for n in range(5)])
    assert harness.calls == [["r0", "r1", "r2", "r3", "r4"]]
    assert harness.discarded == []


def test_bisect_isolates_the_poisoned_record_and_processes_the_rest() -> None:
    harness = Harness(SPEC)
    harness.delivery.deliver("shard", [record(n, poison=n == 5) for n in range(8)])
    assert sorted(harness.processed) == [f"r{n}" for n in range(8) if n != 5]
    assert [m["DDBStreamBatchInfo"]["batchSize"] for m in harness.discarded] == [1]
    message = harness.discarded[0]
    assert message["requestContext"]["condition"] == "RetryAttemptsExhausted"
    assert message["requestContext"]["approximateInvokeCount"] == SPEC.max_retries + 1
    assert message["DDBStreamBatchInfo"]["startSequenceNumber"] == f"{5:021d}"
    assert harness.calls.count(["r5"]) == SPEC.max_retries + 1
    assert harness.processed.index("r6") > harness.processed.index("r4")  # order within the shard kept


def test_without_bisect_the_whole_batch_is_discarded_after_its_retries() -> None:
    harness = Harness(replace(SPEC, bisect_on_error=False))
    harness.delivery.deliver("shard", [record(n, poison=n == 1) for n in range(3)])
    assert len(harness.calls) == SPEC.max_retries + 1
    assert harness.discarded[0]["DDBStreamBatchInfo"]["batchSize"] == 3


def test_partial_failure_retries_from_the_lowest_failed_sequence_number() -> None:
    harness = Harness(replace(SPEC, report_batch_item_failures=True, max_retries=1), partial=True)
    harness.delivery.deliver("shard", [record(n, poison=n == 2) for n in range(4)])
    assert harness.calls == [["r0", "r1", "r2", "r3"], ["r2", "r3"]]
    info = harness.discarded[0]["DDBStreamBatchInfo"]
    assert (info["startSequenceNumber"], info["batchSize"]) == (f"{2:021d}", 2)


def test_unknown_item_identifier_counts_as_complete_failure() -> None:
    calls = []

    def invoke(event: dict) -> Invocation:
        calls.append(len(event["Records"]))
        return Invocation("id", True, result={"batchItemFailures": [{"itemIdentifier": ""}]})

    discarded: list[dict] = []
    spec = replace(SPEC, report_batch_item_failures=True, bisect_on_error=False, max_retries=0)
    BatchDelivery(spec, "arn", invoke, discarded.append, MappingStats(), lambda _l: None).deliver(
        "shard", [record(n) for n in range(3)]
    )
    assert calls == [3]
    assert discarded[0]["DDBStreamBatchInfo"]["batchSize"] == 3


def test_records_past_their_maximum_age_are_discarded_unprocessed() -> None:
    harness = Harness(replace(SPEC, max_record_age_seconds=60))
    harness.delivery.deliver("shard", [record(0, age=120), record(1)])
    assert harness.calls == [["r1"]]
    assert harness.discarded[0]["requestContext"]["condition"] == "RecordAgeExceeded"


@pytest.mark.parametrize("retries", [-1])
def test_infinite_retries_keep_trying_until_success(retries: int) -> None:
    attempts = []

    def flaky(event: dict) -> Invocation:
        attempts.append(1)
        ok = len(attempts) >= 4
        return Invocation("id", ok, error={} if ok else {"errorType": "E", "errorMessage": "later"})

    spec = replace(SPEC, max_retries=retries, bisect_on_error=False)
    BatchDelivery(spec, "arn", flaky, pytest.fail, MappingStats(), lambda _l: None).deliver("s", [record(0)])
    assert len(attempts) == 4


def test_a_clock_moved_ahead_ages_the_records_for_the_function_the_iterator_age_and_the_age_limit() -> None:
    """The local clock skipped 10 minutes while the records waited: the function sees them 10 minutes
    older on its own (machine) clock, the iterator age says so, and the age limit counts it."""
    clock, ages, seen = LocalClock(), [], []
    delivery = BatchDelivery(
        replace(SPEC, max_record_age_seconds=900),
        "arn:fn",
        lambda event: seen.extend(event["Records"]) or Invocation("r", True),
        lambda _message: None,
        MappingStats(),
        lambda _line: None,
        clock,
        ages.append,
    )
    fresh = record(1)
    fresh["dynamodb"]["ApproximateCreationDateTime"] += clock.offset  # as the poller stamps it
    clock.advance(600)
    delivery.deliver("shard", [fresh])
    assert seen[0]["dynamodb"]["ApproximateCreationDateTime"] <= time.time() - 599
    assert fresh["dynamodb"]["ApproximateCreationDateTime"] > time.time() - 5  # the poller's copy is kept
    assert 600 <= ages[0] < 605
    clock.advance(600)  # 20 minutes now: past the mapping's 15-minute limit
    delivery.deliver("shard", [fresh])
    assert delivery.stats.records_discarded == 1 and len(seen) == 1
