"""The replicator's AWS side: conditional writes into the replica, and the queue records are parked on.

Every replica write is one PutItem with `attribute_not_exists(_rep_seq) OR _rep_seq < :seq`: the first
version of a key, or a newer one, lands; a duplicate or older record is refused by DynamoDB itself
(ConditionalCheckFailed), which the replicator counts as already applied. No read before the
write, so concurrent writers of one key cannot race: whichever version is newest wins. Both
repositories use `common.clients.STREAM_CALLS` (a stream consumer has minutes, not seconds).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Self

from tatami_functions.common.clients import STREAM_CALLS
from tatami_functions.common.repository import CONDITION_FAILED, Repository, TableRepository
from tatami_functions.replication.exceptions import ReplicaUnavailableError, UnreplicableRecordError
from tatami_functions.replication.records import VERSION, Item
from tatami_functions.replication.settings import ReplicatorSettings

if TYPE_CHECKING:
    from mypy_boto3_sqs import SQSClient

_NEWER = "attribute_not_exists(#seq) OR #seq < :seq"
VALIDATION = "ValidationException"  # what DynamoDB answers an item it can never store


class _Stale(Exception):
    """The replica holds this version or a newer one."""


class _Refused(Exception):
    """The replica can never store this item as it is."""


class ReplicaRepository(TableRepository):
    """Writes versions into the replica (readers hide its tombstones: `records.live`).

    For example (not run as a doctest)::

        replica = ReplicaRepository("Replica", client=boto3.client("dynamodb"))
        replica.write({"PK": {"S": "request#1"}, "_rep_seq": {"S": "00...12"}})
        # -> True
    """

    noun, unavailable, client_config = "the replica", ReplicaUnavailableError, STREAM_CALLS
    settings = ReplicatorSettings

    def write(self, item: Item) -> bool:
        """Store `item` unless the replica holds its version or a newer one; True if it was stored."""
        try:
            self._call(
                "put_item",
                errors={CONDITION_FAILED: _Stale(), VALIDATION: _Refused()},
                TableName=self.table_name,
                Item=item,
                ConditionExpression=_NEWER,
                ExpressionAttributeNames={"#seq": VERSION},
                ExpressionAttributeValues={":seq": item[VERSION]},
            )
        except _Stale:
            return False  # a newer (or this very) version is already there
        except _Refused as refused:
            # DynamoDB's reason (e.g. the item plus its version exceeds 400 KB) goes into the parked message.
            reason = refused.__cause__
            raise UnreplicableRecordError(f"the replica refuses the item: {reason}") from reason
        return True


class FailureQueueRepository(Repository["SQSClient"]):
    """The queue records the replica can never store are parked on (with the stream's own failures).

    For example (not run as a doctest)::

        FailureQueueRepository("https://sqs.../q", client=boto3.client("sqs")).park({})
    """

    service, noun, unavailable, client_config = (
        "sqs",
        "the failure queue",
        ReplicaUnavailableError,
        STREAM_CALLS,
    )

    def __init__(self, queue_url: str, client: SQSClient | None = None) -> None:
        super().__init__(client)
        self.queue_url = queue_url

    @classmethod
    def _from_env(cls) -> Self:
        return cls(ReplicatorSettings.from_env().failure_queue_url)

    def park(self, message: dict[str, Any]) -> None:
        """Send `message`; ReplicaUnavailableError if SQS refuses it for now (the record is retried)."""
        self._call(
            "send_message", action="park a record", QueueUrl=self.queue_url, MessageBody=json.dumps(message)
        )


def repository() -> ReplicaRepository:
    """The function's replica, named by its environment (created once per execution environment)."""
    return ReplicaRepository.from_environment()


def failure_queue() -> FailureQueueRepository:
    """The function's failure queue, named by its environment (created once per execution environment)."""
    return FailureQueueRepository.from_environment()
