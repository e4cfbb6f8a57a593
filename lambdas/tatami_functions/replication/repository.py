"""The replica table (logfile_replica): conditional writes that only move an item forward in time.

Every write is one PutItem with `attribute_not_exists(_rep_seq) OR _rep_seq < :seq`: the first
version of a key, or a newer one, lands; a duplicate or older record is refused by DynamoDB itself
(ConditionalCheckFailed), which the replicator counts as already applied. No read before the
write, so concurrent writers of one key cannot race: whichever version is newest wins.
"""

from __future__ import annotations

from botocore.exceptions import BotoCoreError, ClientError

from tatami_functions.common.clients import STREAM_CALLS
from tatami_functions.common.repository import CONDITION_FAILED, TableRepository
from tatami_functions.replication.exceptions import ReplicaUnavailableError, UnreplicableRecordError
from tatami_functions.replication.records import VERSION, Item
from tatami_functions.replication.settings import ReplicatorSettings

_NEWER = "attribute_not_exists(#seq) OR #seq < :seq"


class ReplicaTable(TableRepository):
    """Writes versions into the replica (readers hide its tombstones: `records.live`).

    >>> replica = ReplicaTable("Tatami-LogfileReplica", client=boto3.client("dynamodb"))  # doctest: +SKIP
    >>> replica.write({"PK": {"S": "request#1"}, "_rep_seq": {"S": "00...12"}})  # doctest: +SKIP
    True
    """

    noun, unavailable, client_config = "the replica", ReplicaUnavailableError, STREAM_CALLS
    settings = ReplicatorSettings

    def write(self, item: Item) -> bool:
        """Store `item` unless the replica holds its version or a newer one; True if it was stored."""
        try:
            self.client.put_item(
                TableName=self.table_name,
                Item=item,
                ConditionExpression=_NEWER,
                ExpressionAttributeNames={"#seq": VERSION},
                ExpressionAttributeValues={":seq": item[VERSION]},
            )
        except ClientError as exc:
            code = exc.response["Error"]["Code"]
            if code == CONDITION_FAILED:
                return False  # a newer (or this very) version is already there
            if code == "ValidationException":
                raise UnreplicableRecordError(f"the replica refuses the item: {exc}") from exc
            raise ReplicaUnavailableError(f"cannot write the replica: {exc}") from exc
        except BotoCoreError as exc:
            raise ReplicaUnavailableError(f"cannot write the replica: {exc}") from exc
        return True


def default_table() -> ReplicaTable:
    """The function's replica, named by its environment (created once per execution environment)."""
    return ReplicaTable.from_environment()
