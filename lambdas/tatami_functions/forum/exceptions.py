"""What the forum model can refuse; the API turns the not-found errors into 404s, a failing DynamoDB
into 503."""

from __future__ import annotations

from tatami_functions.common.dependencies import DependencyError
from tatami_functions.common.errors import ItemNotFoundError


class ForumError(Exception):
    """Base of the forum model's errors."""


class ForumNotFoundError(ForumError, ItemNotFoundError):
    def __init__(self, forum: str) -> None:
        super().__init__(f"no forum named {forum!r}")


class ThreadNotFoundError(ForumError, ItemNotFoundError):
    def __init__(self, forum: str, subject: str) -> None:
        super().__init__(f"no thread {subject!r} in forum {forum!r}")


class InvalidItemError(ForumError, ValueError):
    """An item to save lacks a key or has a name that would break the Reply table's `forum#subject` key."""


class ForumUnavailableError(ForumError, DependencyError):
    """DynamoDB failed a call (throttled, unreachable, too slow or refusing): the API answers 503."""
