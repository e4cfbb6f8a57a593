"""The idempotency table: one record per Idempotency-Key used, written with its increment in one commit.

A keyed increment is one `TransactWriteItems`: the shard's `ADD` and a put of the key's record on
condition that no live record holds the key. Both land or neither does, so a crash at any instant
leaves either nothing (a retry applies the increment) or both (a retry finds the record and replays
its answer): no instant leaves an applied increment whose key a retry could apply again. The
`ClientRequestToken` makes the SDK's own retries of that call (a timeout after DynamoDB committed)
idempotent too, for the 10 minutes DynamoDB keeps tokens; past them, the key's condition holds.
"""

from __future__ import annotations

import json
import uuid
from typing import Any, cast

from botocore.exceptions import ClientError

from tatami_functions.common.repository import TRANSACTION_CANCELED
from tatami_functions.counters.exceptions import CounterUnavailableError, IncrementConflictError
from tatami_functions.counters.model import IncrementRecord
from tatami_functions.counters.repository import CountersRepository

# A record a new increment may take over: none, expired (TTL deletes within days, not at once), or a
# legacy in-progress record whose own expiry passed (as Powertools Idempotency let it be taken).
_FREE = "attribute_not_exists(id) OR expiration < :now OR in_progress_expiration < :now_ms"


class _Cancelled(Exception):
    """The transaction was cancelled; its cause is the ClientError with the reasons, item by item."""

    def reasons(self) -> list[dict[str, Any]]:
        return cast(list[dict[str, Any]], cast(ClientError, self.__cause__).response["CancellationReasons"])


def _item(record: IncrementRecord) -> dict[str, Any]:
    return {
        "id": {"S": record.id},
        "status": {"S": record.status},
        "data": {"S": json.dumps(record.response, sort_keys=True)},
        "validation": {"S": record.validation},
        "expiration": {"N": str(record.expiration)},
    }


def _record(item: dict[str, Any]) -> IncrementRecord:
    return IncrementRecord(
        id=item["id"]["S"],
        response=json.loads(item["data"]["S"]) if "data" in item else {},
        validation=item.get("validation", {}).get("S", ""),
        expiration=int(item["expiration"]["N"]),
        status=item.get("status", {}).get("S", "COMPLETED"),
    )


class IdempotencyTable(CountersRepository):
    """Commits keyed increments with their records; reads a record back for a replay."""

    noun, table_setting = "increment records", "idempotency_table"

    def commit(
        self, shard_update: dict[str, Any], record: IncrementRecord, now: float
    ) -> IncrementRecord | None:
        """Apply `shard_update` and store `record` in one transaction: None when both committed, the
        record holding the key when it was already used (nothing applied).

        IncrementConflictError when another transaction held the shard or the record (retry);
        CounterUnavailableError for any other failure (throttling, unreachable, timeout).

        >>> IdempotencyTable.from_environment().commit(update, record, time.time())  # doctest: +SKIP
        """
        put = {
            "TableName": self.table_name,
            "Item": _item(record),
            "ConditionExpression": _FREE,
            "ExpressionAttributeValues": {
                ":now": {"N": str(int(now))},
                ":now_ms": {"N": str(int(now * 1000))},
            },
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
        }
        try:
            self._call(
                "transact_write_items",
                errors={TRANSACTION_CANCELED: _Cancelled()},
                action="commit an increment with its key",
                TransactItems=[{"Update": shard_update}, {"Put": put}],
                ClientRequestToken=str(uuid.uuid4()),  # the SDK resends this one call with the same token
            )
        except _Cancelled as cancelled:
            return self._cancelled(cancelled.reasons(), record.id)
        return None

    def _cancelled(self, reasons: list[dict[str, Any]], record_id: str) -> IncrementRecord:
        codes = [reason.get("Code", "None") for reason in reasons]
        if codes[-1] == "ConditionalCheckFailed":
            old = reasons[-1].get("Item")
            return _record(old) if old else self.read(record_id)
        if "TransactionConflict" in codes:
            raise IncrementConflictError(on_key=codes[-1] == "TransactionConflict")
        reasons_text = ", ".join(codes)
        raise CounterUnavailableError(f"cannot commit an increment with its key: cancelled ({reasons_text})")

    def read(self, record_id: str) -> IncrementRecord:
        """The record of `record_id` (strongly consistent: it was just found to exist)."""
        key = {"id": {"S": record_id}}
        response = self._call("get_item", TableName=self.table_name, Key=key, ConsistentRead=True)
        if "Item" not in response:  # expired and swept between the two calls: the caller retries
            raise IncrementConflictError(on_key=True)
        return _record(response["Item"])
