"""The documents table: `report_id` key, the user/status GSI with an INCLUDE projection, error translation."""

from __future__ import annotations

from typing import Any

from tatami_functions.common.attribute_values import deserialize, serialize
from tatami_functions.common.repository import CONDITION_FAILED, TableRepository
from tatami_functions.documents.exceptions import (
    DocumentConflictError,
    DocumentNotFoundError,
    DocumentsUnavailableError,
    ReportIdTakenError,
)
from tatami_functions.documents.models import Document, DocumentStatus, listed
from tatami_functions.documents.settings import DocumentsSettings

INDEX = "GSI_user_id_status_with_created_on"
Key = dict[str, Any]
_OWNED = "user_id = :user"


def _plain(item: dict[str, Any]) -> dict[str, Any]:
    from boto3.dynamodb.types import Binary  # boto3 with the first item, not at init

    values = {name: deserialize(value) for name, value in item.items()}
    return {k: bytes(v) if isinstance(v, Binary) else int(v) if k == "size" else v for k, v in values.items()}


def to_document(values: dict[str, Any]) -> Document:
    status, created_on = values["status_with_created_on"].split("#", 1)
    return Document(
        report_id=values["report_id"],
        user_id=values["user_id"],
        status=DocumentStatus(status),
        created_on=created_on,
        summary=values["summary"],
        size=values["size"],
        storage="inline" if "document_gz" in values else "s3",
    )


class DocumentsTable(TableRepository):
    """The seed's redesigned `documents` table.

    >>> docs = DocumentsTable("Tatami-Documents", client=boto3.client("dynamodb"))  # doctest: +SKIP
    >>> docs.list("MAX", DocumentStatus.COMPLETED, None, 50)  # doctest: +SKIP
    ([{'report_id': 'r-0001', 'status': 'COMPLETED', 'created_on': '2021-07-13', 'summary': ...}], None)
    """

    noun, unavailable, settings = "documents", DocumentsUnavailableError, DocumentsSettings

    def put(self, values: dict[str, Any]) -> dict[str, Any] | None:
        """Write a document item unless its report_id is another user's (ReportIdTakenError); the item
        it replaced, if any."""
        request: dict[str, Any] = {"TableName": self.table_name}
        request["Item"] = {k: serialize(v) for k, v in values.items()}
        request |= {"ConditionExpression": f"attribute_not_exists(report_id) OR {_OWNED}"}
        request |= {
            "ExpressionAttributeValues": {":user": {"S": values["user_id"]}},
            "ReturnValues": "ALL_OLD",
        }
        taken = ReportIdTakenError(values["report_id"])
        response = self._call("put_item", errors={CONDITION_FAILED: taken}, **request)
        return _plain(response["Attributes"]) if "Attributes" in response else None

    def get(self, user_id: str, report_id: str) -> dict[str, Any]:
        """The whole item (body included) of a user's document: one GetItem."""
        key = {"report_id": {"S": report_id}}
        response = self._call("get_item", TableName=self.table_name, Key=key, ReturnConsumedCapacity="TOTAL")
        item = response.get("Item")
        if not item or item["user_id"]["S"] != user_id:  # another user's report is as good as absent
            raise DocumentNotFoundError(f"user {user_id} has no document {report_id}")
        return _plain(item)

    def list(
        self, user_id: str, status: DocumentStatus | None, start: Key | None, limit: int
    ) -> tuple[list[Any], Any]:
        """A page of a user's documents from the GSI, newest first within a status (no bodies read)."""
        condition, values = "user_id = :user", {":user": {"S": user_id}}
        if status is not None:
            condition += " AND begins_with(status_with_created_on, :status)"
            values[":status"] = {"S": f"{status.value}#"}
        request: dict[str, Any] = {"TableName": self.table_name, "IndexName": INDEX, "Limit": limit}
        request |= {"KeyConditionExpression": condition, "ExpressionAttributeValues": values}
        request |= {"ScanIndexForward": False, "ReturnConsumedCapacity": "TOTAL"}
        if start:
            request["ExclusiveStartKey"] = start
        response = self._call("query", **request)
        return [listed(_plain(item)) for item in response["Items"]], response.get("LastEvaluatedKey")

    def update(self, user_id: str, report_id: str, expected_key: str, changes: dict[str, Any]) -> Document:
        """Set attributes of a user's document if its status/date is still `expected_key`."""
        request: dict[str, Any] = {"TableName": self.table_name, "Key": {"report_id": {"S": report_id}}}
        request["UpdateExpression"] = "SET " + ", ".join(f"#{name} = :{name}" for name in changes)
        request["ConditionExpression"] = f"{_OWNED} AND status_with_created_on = :expected"
        request["ExpressionAttributeNames"] = {f"#{name}": name for name in changes}
        values = {f":{name}": serialize(value) for name, value in changes.items()}
        values |= {":user": {"S": user_id}, ":expected": {"S": expected_key}}
        request |= {"ExpressionAttributeValues": values, "ReturnValues": "ALL_NEW"}
        conflict = DocumentConflictError(f"document {report_id} changed meanwhile; retry")
        response = self._call("update_item", errors={CONDITION_FAILED: conflict}, **request)
        return to_document(_plain(response["Attributes"]))

    def delete(self, user_id: str, report_id: str) -> dict[str, Any]:
        """Delete a user's document; the item it was (to clean up its body)."""
        request: dict[str, Any] = {"TableName": self.table_name, "Key": {"report_id": {"S": report_id}}}
        request |= {"ConditionExpression": _OWNED, "ExpressionAttributeValues": {":user": {"S": user_id}}}
        missing = DocumentNotFoundError(f"user {user_id} has no document {report_id}")
        response = self._call(
            "delete_item", errors={CONDITION_FAILED: missing}, **request, ReturnValues="ALL_OLD"
        )
        return _plain(response["Attributes"])


def default_table() -> DocumentsTable:
    """The function's table, named by its environment (created once per execution environment)."""
    return DocumentsTable.from_environment()
