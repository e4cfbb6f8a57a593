"""The documents table and the bucket of large bodies: every AWS call the documents service makes.

`DocumentsRepository`: the table (`report_id` key) and its user/status GSI with an INCLUDE projection.
`DocumentBodiesRepository`: bodies too large to stay inline, as objects under `documents/` of the
workshop bucket. Every SDK error of either leaves as `DocumentsUnavailableError` (a 503).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from botocore.exceptions import BotoCoreError

from tatami_functions.common.attribute_values import deserialize, serialize
from tatami_functions.common.paging import Item, ListPage, ReadStats, start_key
from tatami_functions.common.repository import CONDITION_FAILED, Repository, TableRepository
from tatami_functions.documents.exceptions import (
    DocumentBodyLostError,
    DocumentConflictError,
    DocumentNotFoundError,
    DocumentsUnavailableError,
    ReportIdTakenError,
)
from tatami_functions.documents.reports import Document, DocumentStatus, listed
from tatami_functions.documents.settings import DocumentsSettings
from tatami_functions.documents.table import BY_USER, DOCUMENTS

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

(REPORT,) = DOCUMENTS.key_names
USER, STATUS_DATE = BY_USER.key_names
_OWNED = f"{USER} = :user"


def _plain(item: Item) -> dict[str, Any]:
    from boto3.dynamodb.types import Binary  # boto3 with the first item, not at init

    values = {name: deserialize(value) for name, value in item.items()}
    return {k: bytes(v) if isinstance(v, Binary) else int(v) if k == "size" else v for k, v in values.items()}


def _key(report_id: str) -> Item:
    return {REPORT: {"S": report_id}}


class DocumentsRepository(TableRepository):
    """The seed's redesigned `documents` table.

    For example (not run as a doctest)::

        docs = DocumentsRepository("Tatami-Documents", client=boto3.client("dynamodb"))
        docs.list("MAX", DocumentStatus.COMPLETED, 50, None).items
        # -> [{'report_id': 'r-0001', 'status': 'COMPLETED', 'created_on': '2021-07-13', 'summary': ...}]
    """

    noun, unavailable, settings = "documents", DocumentsUnavailableError, DocumentsSettings

    def put(self, values: dict[str, Any]) -> dict[str, Any] | None:
        """Write a document item unless its report_id is another user's (ReportIdTakenError); the item
        it replaced, if any."""
        taken = ReportIdTakenError(values[REPORT])
        response = self._call(
            "put_item",
            errors={CONDITION_FAILED: taken},
            TableName=self.table_name,
            Item={k: serialize(v) for k, v in values.items()},
            ConditionExpression=f"attribute_not_exists({REPORT}) OR {_OWNED}",
            ExpressionAttributeValues={":user": {"S": values[USER]}},
            ReturnValues="ALL_OLD",
        )
        return _plain(response["Attributes"]) if "Attributes" in response else None

    def get(self, user_id: str, report_id: str) -> dict[str, Any]:
        """The whole item (body included) of a user's document: one GetItem."""
        response = self._call(
            "get_item", TableName=self.table_name, Key=_key(report_id), ReturnConsumedCapacity="TOTAL"
        )
        item = response.get("Item")
        if not item or item[USER]["S"] != user_id:  # another user's report is as good as absent
            raise DocumentNotFoundError(f"user {user_id} has no document {report_id}")
        return _plain(item)

    def list(self, user_id: str, status: DocumentStatus | None, limit: int, cursor: Item | None) -> ListPage:
        """A page of a user's documents from the GSI, newest first within a status (no bodies read)."""
        condition, values = _OWNED, {":user": {"S": user_id}}
        if status is not None:
            condition += f" AND begins_with({STATUS_DATE}, :status)"
            values[":status"] = {"S": f"{status.value}#"}
        response = self._call(
            "query",
            TableName=self.table_name,
            IndexName=BY_USER.name,
            KeyConditionExpression=condition,
            ExpressionAttributeValues=values,
            ScanIndexForward=False,
            Limit=limit,
            ReturnConsumedCapacity="TOTAL",
            **start_key(cursor),
        )
        entries = [listed(_plain(item)) for item in response["Items"]]
        return ListPage(entries, response.get("LastEvaluatedKey"), ReadStats.of(response))

    def update(self, user_id: str, report_id: str, expected_key: str, changes: dict[str, Any]) -> Document:
        """Set attributes of a user's document if its status/date is still `expected_key`."""
        values = {f":{name}": serialize(value) for name, value in changes.items()}
        values |= {":user": {"S": user_id}, ":expected": {"S": expected_key}}
        conflict = DocumentConflictError(f"document {report_id} changed meanwhile; retry")
        response = self._call(
            "update_item",
            errors={CONDITION_FAILED: conflict},
            TableName=self.table_name,
            Key=_key(report_id),
            UpdateExpression="SET " + ", ".join(f"#{name} = :{name}" for name in changes),
            ConditionExpression=f"{_OWNED} AND {STATUS_DATE} = :expected",
            ExpressionAttributeNames={f"#{name}": name for name in changes},
            ExpressionAttributeValues=values,
            ReturnValues="ALL_NEW",
        )
        return Document.of(_plain(response["Attributes"]))

    def delete(self, user_id: str, report_id: str) -> dict[str, Any]:
        """Delete a user's document; the item it was (to clean up its body)."""
        missing = DocumentNotFoundError(f"user {user_id} has no document {report_id}")
        response = self._call(
            "delete_item",
            errors={CONDITION_FAILED: missing},
            TableName=self.table_name,
            Key=_key(report_id),
            ConditionExpression=_OWNED,
            ExpressionAttributeValues={":user": {"S": user_id}},
            ReturnValues="ALL_OLD",
        )
        return _plain(response["Attributes"])


class DocumentBodiesRepository(Repository["S3Client"]):
    """The S3 side of document bodies, by object key.

    For example (not run as a doctest)::

        DocumentBodiesRepository("tatami-documents").put("documents/r1/abc", "text")
    """

    service, unavailable = "s3", DocumentsUnavailableError

    def __init__(self, bucket: str, client: S3Client | None = None) -> None:
        super().__init__(client)
        self.bucket = bucket

    @classmethod
    def _from_env(cls) -> Self:
        return cls(DocumentsSettings.from_env().bucket)

    def put(self, key: str, text: str) -> None:
        self._call(
            "put_object",
            action="store a document body",
            Bucket=self.bucket,
            Key=key,
            Body=text.encode(),
            ContentType="text/plain; charset=utf-8",
        )

    def get(self, key: str, report_id: str) -> str:
        lost = {"NoSuchKey": DocumentBodyLostError(report_id)}
        response = self._call(
            "get_object", errors=lost, action="read a document body", Bucket=self.bucket, Key=key
        )
        try:
            data: bytes = response["Body"].read()
        except BotoCoreError as exc:  # the body streams in after the call answered
            raise self._failure("get_object", "read a document body", exc) from exc
        return data.decode()

    def delete(self, key: str) -> None:
        self._call("delete_object", action="delete a document body", Bucket=self.bucket, Key=key)


def repository() -> DocumentsRepository:
    """The function's table repository, named by its environment (created once per execution environment)."""
    return DocumentsRepository.from_environment()


def bodies() -> DocumentBodiesRepository:
    """The function's bodies repository, named by its environment (created once per execution environment)."""
    return DocumentBodiesRepository.from_environment()
