"""AWS/SQS's metrics of the template's queues, from looking at them as the local cloud runs.

Each sample reads a queue's visible messages (ApproximateNumberOfMessagesVisible) and peeks at up to
ten of them without taking them (a receive with visibility 0, as the console's peek does): a message
not seen before counts once in NumberOfMessagesSent, at the instant it was sent; the oldest one's age
is ApproximateAgeOfOldestMessage. The template's queues are failure and dead-letter queues, which
nothing receives from, so the oldest messages are among the first ten and a message lives past a
sample. Times are on the local cloud's clock, so a parked message ages as a test moves it ahead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tatami.local.cloudwatch.metrics import MetricStore

__all__ = ["QueueMetrics"]

PEEKED = 10  # SQS's most per receive


class QueueMetrics:
    """Samples queues into `store`, remembering which messages each sample saw."""

    def __init__(self, store: MetricStore) -> None:
        self.store = store
        self._seen: dict[str, dict[str, float]] = {}  # queue name -> message id -> sent, on the clock

    def sample(self, sqs: Any, queue_urls: Mapping[str, str]) -> None:
        """Each queue's metrics now (`queue_urls`: queue name -> URL)."""
        for name, url in queue_urls.items():
            dimensions = {"QueueName": name}
            try:
                attributes = sqs.get_queue_attributes(
                    QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"]
                )
            except sqs.exceptions.QueueDoesNotExist:
                continue  # deleted: a queue that is gone publishes nothing
            visible = int(attributes["Attributes"]["ApproximateNumberOfMessages"])
            self.store.put("AWS/SQS", "ApproximateNumberOfMessagesVisible", dimensions, visible)
            waiting = self._peek(sqs, url) if visible else {}
            seen = self._seen.get(name, {})
            for message_id, sent in waiting.items():
                if message_id not in seen:
                    self.store.put("AWS/SQS", "NumberOfMessagesSent", dimensions, 1, at=sent)
            self._seen[name] = waiting
            oldest = self.store.clock.now() - min(waiting.values()) if waiting else 0.0
            self.store.put("AWS/SQS", "ApproximateAgeOfOldestMessage", dimensions, max(oldest, 0.0))

    def _peek(self, sqs: Any, url: str) -> dict[str, float]:
        """Message id -> when it was sent, on the clock, of the first messages waiting."""
        messages = sqs.receive_message(
            QueueUrl=url, MaxNumberOfMessages=PEEKED, VisibilityTimeout=0, AttributeNames=["SentTimestamp"]
        ).get("Messages", [])
        return {
            message["MessageId"]: self.store.clock.reading_at(
                int(message["Attributes"]["SentTimestamp"]) / 1000
            )
            for message in messages
        }
