"""tatami/local/cloudwatch/queue_metrics.py: a queue's visible messages, the messages sent to it and the
oldest one's age, from peeks that take nothing."""

from __future__ import annotations

import time
from typing import Any

from tatami.local.cloudwatch.metrics import LocalClock, MetricStore
from tatami.local.cloudwatch.queue_metrics import QueueMetrics

EVER = (0.0, float("inf"))
QUEUE = {"QueueName": "Failures"}


class FakeQueue:
    """SQS's two calls the sampler makes, over messages (id, sent at) kept in order."""

    class exceptions:
        class QueueDoesNotExist(Exception):
            pass

    def __init__(self) -> None:
        self.messages: list[tuple[str, float]] = []
        self.peeks: list[dict[str, Any]] = []
        self.deleted = False

    def get_queue_attributes(self, **_: Any) -> dict[str, Any]:
        if self.deleted:
            raise self.exceptions.QueueDoesNotExist()
        return {"Attributes": {"ApproximateNumberOfMessages": str(len(self.messages))}}

    def receive_message(self, **request: Any) -> dict[str, Any]:
        self.peeks.append(request)
        return {
            "Messages": [
                {"MessageId": m, "Attributes": {"SentTimestamp": str(int(at * 1000))}}
                for m, at in self.messages[: request["MaxNumberOfMessages"]]
            ]
        }


def test_each_message_counts_once_and_the_oldest_ages_with_the_clock() -> None:
    clock, sqs = LocalClock(), FakeQueue()
    sampler = QueueMetrics(MetricStore(clock))
    values = lambda name: sampler.store.values("AWS/SQS", name, QUEUE, *EVER)  # noqa: E731
    sampler.sample(sqs, {"Failures": "url"})
    assert sqs.peeks == [] and values("ApproximateAgeOfOldestMessage") == [0.0]  # empty: not peeked
    sqs.messages.append(("m1", time.time()))
    sampler.sample(sqs, {"Failures": "url"})
    sampler.sample(sqs, {"Failures": "url"})
    assert values("NumberOfMessagesSent") == [1.0]  # seen twice, sent once
    assert values("ApproximateNumberOfMessagesVisible") == [0.0, 1.0, 1.0]
    clock.advance(11 * 86_400)  # parked, then left for 11 days (the store keeps a day of datapoints)
    sqs.messages.append(("m2", time.time() + 0.01))  # SentTimestamp is in ms: after the skip
    sampler.sample(sqs, {"Failures": "url"})
    assert values("NumberOfMessagesSent") == [1.0] and values("ApproximateNumberOfMessagesVisible") == [2.0]
    assert values("ApproximateAgeOfOldestMessage")[-1] >= 11 * 86_400
    assert sqs.peeks[0]["VisibilityTimeout"] == 0  # a peek: the message stays where it is
    sqs.messages.clear()
    sampler.sample(sqs, {"Failures": "url"})
    assert values("ApproximateAgeOfOldestMessage")[-1] == 0.0


def test_a_deleted_queue_publishes_nothing() -> None:
    sqs = FakeQueue()
    sampler = QueueMetrics(MetricStore(LocalClock()))
    sqs.deleted = True
    sampler.sample(sqs, {"Failures": "url"})
    assert sampler.store.names() == []
