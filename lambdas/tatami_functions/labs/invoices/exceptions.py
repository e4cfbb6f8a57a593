"""Errors of the invoices lab; SDK errors become these at the repository boundary."""

from __future__ import annotations


class InvoicesError(Exception):
    """Base class of the lab's errors."""


class InvoiceNotFoundError(InvoicesError, LookupError):
    """No invoice, customer or bill has this id."""


class InvoiceConflictError(InvoicesError):
    """The invoice changed between the read and the write (retry)."""


class InvoicesUnavailableError(InvoicesError):
    """DynamoDB refused a call (throttled, missing table, no permission)."""
