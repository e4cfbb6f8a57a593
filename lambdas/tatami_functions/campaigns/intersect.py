"""Intersection of sorted id lists read from several indexes, a page at a time (pure: no I/O of its own).

Each selective GSI has the user id as its sort key, so one index value's ids come back in order and
any index can *seek*: "the first id >= x" is one Query (`user_id >= :x`). Leapfrogging (take the
largest head, make every other index seek to it) skips whole runs of ids that cannot match, so the
sparsest index sets the pace: a condition only a few users meet keeps the others from being read
in full. That is "start from the most selective" without knowing in advance which one it is.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

# (first id wanted, at most how many) -> (ids >= it in ascending order, whether more may follow)
Seek = Callable[[str, int], tuple[list[str], bool]]
LOWEST = ""


def successor(user_id: str) -> str:
    """The smallest string after `user_id` (DynamoDB compares strings as UTF-8 bytes).

    >>> successor("a") > "a" and successor("a") < "a0"
    True
    """
    return user_id + "\0"


class SortedIds:
    """One index's ids in ascending order, buffered a page at a time."""

    def __init__(self, seek: Seek, page_size: int) -> None:
        self._seek, self._page_size = seek, page_size
        self._buffer: deque[str] = deque()
        self._more = True
        self._from = LOWEST  # where the buffer's contents start

    def first_at_or_after(self, target: str) -> str | None:
        """The smallest id >= target, or None if there is none."""
        while self._buffer and self._buffer[0] < target:
            self._buffer.popleft()
        if self._buffer:
            return self._buffer[0]
        if not self._more and target >= self._from:
            return None
        ids, self._more = self._seek(target, self._page_size)
        self._buffer, self._from = deque(ids), target
        return self._buffer[0] if self._buffer else None


def intersect(indexes: Sequence[SortedIds], start: str, limit: int) -> tuple[list[str], str | None]:
    """Up to `limit` ids, from `start` on, present in every index; and where the next page starts.

    >>> pages = {"a": ["1", "3", "5", "7"], "b": ["3", "4", "7"]}
    >>> def seek_in(ids):
    ...     return lambda low, n: ([i for i in ids if i >= low][:n], len([i for i in ids if i >= low]) > n)
    >>> intersect([SortedIds(seek_in(pages["a"]), 2), SortedIds(seek_in(pages["b"]), 2)], "", 10)
    (['3', '7'], None)
    """
    found: list[str] = []
    target = start
    while len(found) < limit:
        heads = []
        for index in indexes:
            head = index.first_at_or_after(target)
            if head is None:
                return found, None  # one condition has no more users: nobody else can match
            heads.append(head)
            target = max(target, head)  # later indexes seek straight to the largest head so far
        if all(head == target for head in heads):
            found.append(target)
            target = successor(target)
    return found, target
