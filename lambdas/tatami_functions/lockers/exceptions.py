"""Errors of the lockers service; SDK errors become these at the repository boundary."""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError
from tatami_functions.common.errors import ConflictError, ItemNotFoundError


class LockersError(Exception):
    """Base class of the service's errors."""


class LockerNotFoundError(LockersError, ItemNotFoundError):
    """No locker has this id."""


class LockerConflictError(LockersError, ConflictError):
    """The locker changed while it was being written (retry)."""


class LockersUnavailableError(LockersError, DependencyError):
    """DynamoDB failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
