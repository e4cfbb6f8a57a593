"""Errors of the employees lab; SDK errors become these at the repository boundary."""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError


class EmployeesError(Exception):
    """Base class of the lab's errors."""


class EmployeeNotFoundError(EmployeesError, LookupError):
    """No employee has this id."""


class EmployeeConflictError(EmployeesError):
    """The employee changed between the read and the write (retry)."""


class EmployeesUnavailableError(EmployeesError, DependencyError):
    """DynamoDB failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
