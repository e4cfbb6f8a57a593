"""Plain functions behind the document routes: where a body goes, and cleaning up what it replaced."""

from __future__ import annotations

from datetime import date
from typing import Any

from tatami_functions.common.observability import logger
from tatami_functions.documents.bodies import DocumentBodies, new_key, pack, unpack
from tatami_functions.documents.exceptions import DocumentsUnavailableError, ReportIdTakenError
from tatami_functions.documents.models import (
    Document,
    DocumentIn,
    DocumentPatch,
    status_with_created_on,
)
from tatami_functions.documents.repository import DocumentsTable, to_document


def put_document(
    table: DocumentsTable, bodies: DocumentBodies, user_id: str, report_id: str, body: DocumentIn, today: date
) -> tuple[Document, bool]:
    """Store a document (body inline or in S3); the stored metadata and whether it is new.

    >>> put_document(table, bodies, "MAX", "r-1", DocumentIn(status="PENDING", summary="s",
    ...              document="..."), date(2021, 7, 13))  # doctest: +SKIP
    (Document(report_id='r-1', ..., storage='inline'), True)
    """
    values: dict[str, Any] = {
        "report_id": report_id,
        "user_id": user_id,
        "status_with_created_on": status_with_created_on(body.status, body.created_on or today),
        "summary": body.summary,
        "size": len(body.document.encode()),
    }
    key = _store_body(bodies, report_id, body.document, values)
    try:
        old = table.put(values)
    except ReportIdTakenError:
        if key:
            _forget(bodies, key)
        raise
    old_key = (old or {}).get("document_s3_key")
    if old_key and old_key != key:
        _forget(bodies, old_key)
    return to_document(values), old is None


def _store_body(bodies: DocumentBodies, report_id: str, text: str, values: dict[str, Any]) -> str | None:
    """Put the body inline (compressed) or in S3, before the item: an item never points at nothing."""
    packed = pack(text)
    if packed.inline is not None:
        values["document_gz"] = packed.inline
        return None
    key = new_key(report_id)
    bodies.put(key, packed.text)
    values["document_s3_key"] = key
    return key


def get_document(
    table: DocumentsTable, bodies: DocumentBodies, user_id: str, report_id: str
) -> dict[str, Any]:
    """A document's metadata and body (one GetItem, plus one S3 GET for a large body)."""
    item = table.get(user_id, report_id)
    text = unpack(item["document_gz"]) if "document_gz" in item else bodies.get(item["document_s3_key"])
    return {**to_document(item).to_json(), "document": text}


def patch_document(table: DocumentsTable, user_id: str, report_id: str, patch: DocumentPatch) -> Document:
    """Change a document's status and/or summary (its body stays where it is)."""
    item = table.get(user_id, report_id)
    changes: dict[str, Any] = {}
    if patch.status is not None:
        created_on = date.fromisoformat(item["status_with_created_on"].split("#", 1)[1])
        changes["status_with_created_on"] = status_with_created_on(patch.status, created_on)
    if patch.summary is not None:
        changes["summary"] = patch.summary
    return table.update(user_id, report_id, item["status_with_created_on"], changes)


def delete_document(table: DocumentsTable, bodies: DocumentBodies, user_id: str, report_id: str) -> None:
    old = table.delete(user_id, report_id)
    if "document_s3_key" in old:
        _forget(bodies, old["document_s3_key"])


def _forget(bodies: DocumentBodies, key: str) -> None:
    """Delete an object no item points to any more; a failure leaves a harmless orphan, so only log it."""
    try:
        bodies.delete(key)
    except DocumentsUnavailableError:
        logger.warning("left an orphaned document body", extra={"key": key})
