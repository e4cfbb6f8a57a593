"""Pick-up locations as the seed draws them: partition `state`, sort key `location`.

The sort key is the area path plus the locker id, e.g. "千代田区#紀尾井町#<id>".

Drilling down is `begins_with` on ever longer prefixes of the sort key: a prefecture, a city, a town.
The query appends the separator ("千代田区#紀尾井町#"), so "港区" never matches a "港区南..." sibling.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

SEPARATOR = "#"
MAX_LEVELS = 4
MAX_LEVEL_LENGTH = 40


def normalize_location(text: str) -> str:
    """A location path with '#' between levels ('/' is accepted too: it needs no URL encoding).

    >>> normalize_location("千代田区/紀尾井町")
    '千代田区#紀尾井町'
    >>> normalize_location("千代田区##紀尾井町")
    Traceback (most recent call last):
    ...
    ValueError: has an empty level; write it as 千代田区#紀尾井町 (or 千代田区/紀尾井町)
    """
    parts = [part.strip() for part in text.replace("/", SEPARATOR).split(SEPARATOR)]
    if not all(parts):
        raise ValueError("has an empty level; write it as 千代田区#紀尾井町 (or 千代田区/紀尾井町)")
    if len(parts) > MAX_LEVELS or any(len(part) > MAX_LEVEL_LENGTH for part in parts):
        raise ValueError(
            f"has more than {MAX_LEVELS} levels or a level longer than {MAX_LEVEL_LENGTH} characters"
        )
    return SEPARATOR.join(parts)


@dataclass(frozen=True, slots=True)
class Locker:
    locker_id: str
    state: str
    location: str  # the area path, without the id
    name: str
    address: str

    @property
    def sort_key(self) -> str:
        """The area path and the id: unique within the prefecture, ordered by place.

        >>> Locker("kioi-1", "東京都", "千代田区#紀尾井町", "n", "a").sort_key
        '千代田区#紀尾井町#kioi-1'
        """
        return f"{self.location}{SEPARATOR}{self.locker_id}"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def area_prefix(location: str | None) -> str | None:
    """The `begins_with` prefix of an area, ending at a level boundary.

    >>> area_prefix("千代田区#紀尾井町")
    '千代田区#紀尾井町#'
    """
    return f"{location}{SEPARATOR}" if location else None
