"""A thread's replies: the Reply table's hash key joins forum and subject; which replies a reader asks for."""

from __future__ import annotations

from dataclasses import dataclass

SEPARATOR = "#"


def reply_id(forum: str, subject: str) -> str:
    """The Reply table's hash key of one thread: one hash key holds exactly one thread's replies.

    >>> reply_id("DynamoDB", "DynamoDB Thread 1")
    'DynamoDB#DynamoDB Thread 1'
    """
    return f"{forum}{SEPARATOR}{subject}"


@dataclass(frozen=True, slots=True)
class ReplyQuery:
    """Which replies of a thread: ReplyDateTime within [low, high] (instants; None is open)."""

    forum: str
    subject: str
    low: str | None = None
    high: str | None = None
    descending: bool = False
