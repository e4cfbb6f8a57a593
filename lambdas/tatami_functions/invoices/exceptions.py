"""Errors of the invoices service; SDK errors become these at the repository boundary."""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError
from tatami_functions.common.errors import ConflictError, ItemNotFoundError


class InvoicesError(Exception):
    """Base class of the service's errors."""


class InvoiceNotFoundError(InvoicesError, LookupError, ItemNotFoundError):
    """No invoice, customer or bill has this id."""


class InvoiceConflictError(InvoicesError, ConflictError):
    """The invoice changed between the read and the write (retry)."""


class InvoicesUnavailableError(InvoicesError, DependencyError):
    """DynamoDB failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
