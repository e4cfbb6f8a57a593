"""Errors of the documents service; SDK errors become these at the repository boundary."""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError
from tatami_functions.common.errors import ConflictError, ItemNotFoundError


class DocumentsError(Exception):
    """Base class of the service's errors."""


class DocumentNotFoundError(DocumentsError, ItemNotFoundError):
    """The user has no document with this report_id."""


class DocumentBodyLostError(DocumentsError, ItemNotFoundError):
    """The document's item names a body the bucket no longer has (a 404, not a 503: retrying cannot
    bring it back; putting the document again can)."""

    def __init__(self, report_id: str) -> None:
        super().__init__(
            f"document {report_id}: its body is no longer in the bucket (lost, not delayed); "
            "put the document again"
        )


class DocumentConflictError(DocumentsError, ConflictError):
    """The document changed while it was being updated (a 409: retry)."""


class ReportIdTakenError(DocumentsError, ConflictError):
    """The report_id cannot be stored for this user (report ids are unique across users): a 409 that
    says nothing of who holds it."""

    def __init__(self, report_id: str) -> None:
        super().__init__(f"report_id: {report_id} cannot be used; choose another report_id")


class DocumentsUnavailableError(DocumentsError, DependencyError):
    """DynamoDB or S3 failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
