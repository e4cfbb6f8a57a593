"""What the document routes ask: where a body goes (inline or S3), a user's list from the GSI, and
cleaning up the body a write or a delete left behind."""

from __future__ import annotations

from datetime import date
from typing import Any

from tatami_functions.common.observability import logger
from tatami_functions.common.paging import cursor_from, scope
from tatami_functions.documents.exceptions import DocumentsUnavailableError, ReportIdTakenError
from tatami_functions.documents.reports import (
    Document,
    DocumentStatus,
    new_body_key,
    pack,
    status_with_created_on,
    unpack,
)
from tatami_functions.documents.repository import bodies, repository
from tatami_functions.documents.schemas import DocumentIn, DocumentPatch


def put_document(user_id: str, report_id: str, body: DocumentIn, today: date) -> tuple[Document, bool]:
    """Store a document (body inline or in S3); the stored metadata and whether it is new.

    For example (not run as a doctest)::

        put_document("MAX", "r-1", DocumentIn(status="PENDING", summary="s", document="..."),
                     date(2021, 7, 13))
        # -> (Document(report_id='r-1', ..., storage='inline'), True)
    """
    values: dict[str, Any] = {
        "report_id": report_id,
        "user_id": user_id,
        "status_with_created_on": status_with_created_on(body.status, body.created_on or today),
        "summary": body.summary,
        "size": len(body.document.encode()),
    }
    key = _store_body(report_id, body.document, values)
    try:
        old = repository().put(values)
    except ReportIdTakenError:
        if key:
            _forget(key)
        raise
    old_key = (old or {}).get("document_s3_key")
    if old_key and old_key != key:
        _forget(old_key)
    return Document.of(values), old is None


def _store_body(report_id: str, text: str, values: dict[str, Any]) -> str | None:
    """Put the body inline (compressed) or in S3, before the item: an item never points at nothing."""
    packed = pack(text)
    if packed.inline is not None:
        values["document_gz"] = packed.inline
        return None
    key = new_body_key(report_id)
    bodies().put(key, packed.text)
    values["document_s3_key"] = key
    return key


def documents(user_id: str, status: DocumentStatus | None, limit: int, token: str | None) -> dict[str, Any]:
    """A page of the user's documents without bodies (the GSI), newest first within a status."""
    token_scope = scope("documents", user_id=user_id, status=status)
    return repository().list(user_id, status, limit, cursor_from(token, token_scope)).body(token_scope)


def get_document(user_id: str, report_id: str) -> dict[str, Any]:
    """A document's metadata and body (one GetItem, plus one S3 GET for a large body)."""
    item = repository().get(user_id, report_id)
    text = (
        unpack(item["document_gz"])
        if "document_gz" in item
        else bodies().get(item["document_s3_key"], report_id)
    )
    return {**Document.of(item).to_json(), "document": text}


def patch_document(user_id: str, report_id: str, patch: DocumentPatch) -> Document:
    """Change a document's status and/or summary (its body stays where it is)."""
    table = repository()
    item = table.get(user_id, report_id)
    changes: dict[str, Any] = {}
    if patch.status is not None:
        created_on = date.fromisoformat(item["status_with_created_on"].split("#", 1)[1])
        changes["status_with_created_on"] = status_with_created_on(patch.status, created_on)
    if patch.summary is not None:
        changes["summary"] = patch.summary
    return table.update(user_id, report_id, item["status_with_created_on"], changes)


def delete_document(user_id: str, report_id: str) -> None:
    old = repository().delete(user_id, report_id)
    if "document_s3_key" in old:
        _forget(old["document_s3_key"])


def _forget(key: str) -> None:
    """Delete an object no item points to any more; a failure leaves a harmless orphan, so only log it."""
    try:
        bodies().delete(key)
    except DocumentsUnavailableError:
        logger.warning("left an orphaned document body", extra={"key": key})
