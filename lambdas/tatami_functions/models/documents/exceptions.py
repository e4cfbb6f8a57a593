"""Errors of the documents model; SDK errors become these at the repository and store boundaries."""

from __future__ import annotations


class DocumentsError(Exception):
    """Base class of the model's errors."""


class DocumentNotFoundError(DocumentsError):
    """The user has no document with this report_id."""


class DocumentConflictError(DocumentsError):
    """The report_id belongs to another user, or the document changed while it was being updated."""


class DocumentsUnavailableError(DocumentsError):
    """DynamoDB or S3 refused a call (throttled, missing table or bucket, no permission)."""
