"""Errors of the lockers model; SDK errors become these at the repository boundary."""

from __future__ import annotations


class LockersError(Exception):
    """Base class of the model's errors."""


class LockerNotFoundError(LockersError):
    """No locker has this id."""


class LockerConflictError(LockersError):
    """The locker changed while it was being written (retry)."""


class LockersUnavailableError(LockersError):
    """DynamoDB refused a call (throttled, missing table, no permission)."""
