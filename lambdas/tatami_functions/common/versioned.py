"""Entities kept as the items of one partition (`PK`, `SK`), replaced together under a version.

The lab tables store an employee, or an invoice, as several items of one partition; its head item
(the master item, the invoice item) carries `version`. A writer reads the partition's sort keys
and that version consistently, then writes in one TransactWriteItems whose head item is guarded by
the version it read: of two concurrent writers, the later one is cancelled (a conflict: retry).
"""

from __future__ import annotations

from typing import Any, ClassVar

from tatami_functions.common.repository import TRANSACTION_CANCELED, TableRepository


class VersionedTable(TableRepository):
    """A table of versioned partitions; `entity` names one in the conflict message."""

    conflict: ClassVar[type[Exception]]
    entity: ClassVar[str]

    def _partition(self, pk: str, head: str) -> tuple[set[str], int]:
        """The sort keys of partition `pk` and the version of its `head` item (0: none), read consistently."""
        response = self._call(
            "query",
            TableName=self.table_name,
            KeyConditionExpression="PK = :pk",
            ExpressionAttributeValues={":pk": {"S": pk}},
            ProjectionExpression="SK, version",
            ConsistentRead=True,
        )
        owned = {item["SK"]["S"] for item in response["Items"]}
        heads = [item for item in response["Items"] if item["SK"]["S"] == head]
        return owned, int(heads[0]["version"]["N"]) if heads else 0

    def _transact(self, actions: list[Any]) -> None:
        """One transaction; a failed version guard (another writer was first) is a conflict."""
        conflict = self.conflict(f"the {self.entity} changed meanwhile; retry")
        self._call("transact_write_items", errors={TRANSACTION_CANCELED: conflict}, TransactItems=actions)


def guard(version: int) -> dict[str, Any]:
    """The head item's write condition: still absent, or still at the version read.

    >>> guard(0)
    {'ConditionExpression': 'attribute_not_exists(PK)'}
    >>> guard(3)["ExpressionAttributeValues"]
    {':v': {'N': '3'}}
    """
    if version == 0:
        return {"ConditionExpression": "attribute_not_exists(PK)"}
    return {"ConditionExpression": "version = :v", "ExpressionAttributeValues": {":v": {"N": str(version)}}}
