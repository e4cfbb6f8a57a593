"""Errors of the employees service; SDK errors become these at the repository boundary."""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError
from tatami_functions.common.errors import ConflictError, ItemNotFoundError


class EmployeesError(Exception):
    """Base class of the service's errors."""


class EmployeeNotFoundError(EmployeesError, LookupError, ItemNotFoundError):
    """No employee has this id."""


class EmployeeConflictError(EmployeesError, ConflictError):
    """The employee changed between the read and the write (retry)."""


class EmployeesUnavailableError(EmployeesError, DependencyError):
    """DynamoDB failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""


class QuestionError(EmployeesError, ValueError):
    """A question the indexes cannot answer as asked; `field` names the query parameter to fix."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name
