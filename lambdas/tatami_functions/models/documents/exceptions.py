"""Errors of the documents model; SDK errors become these at the repository and store boundaries."""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError


class DocumentsError(Exception):
    """Base class of the model's errors."""


class DocumentNotFoundError(DocumentsError):
    """The user has no document with this report_id."""


class DocumentConflictError(DocumentsError):
    """The report_id belongs to another user, or the document changed while it was being updated."""


class DocumentsUnavailableError(DocumentsError, DependencyError):
    """DynamoDB or S3 failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
