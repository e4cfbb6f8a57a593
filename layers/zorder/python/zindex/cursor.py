"""Where a page stopped, in the order of the plan family that produced it.

Spans are read in plan order: partition by partition (Z bucket, sorted-index shard, Scan segment) and,
inside one, in the index's key order. A cursor names the family, the partition and a position in it:

* Z family: ``address`` with ``key`` None means "every entry at or before this address was delivered";
  with ``key`` set, resume at ``address`` after that entry (DynamoDB's ExclusiveStartKey). Any Z plan
  of the same index can resume there, whatever spans it chose, so each page may be planned afresh.
* Sorted and Scan families: ``key`` set resumes that partition after that entry; ``key`` None means the
  partition is done.

A cursor travels inside the service's signed page token as :meth:`to_json`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from zindex.dynamojson import to_item, to_wire_item
from zindex.errors import BadQueryError

__all__ = ["Cursor"]


@dataclass(frozen=True, slots=True)
class Cursor:
    """A page's end: plan family, partition, and (Z) address or (any) the entry to resume after.

    >>> c = Cursor("z:places-z", 3, address=12345, key={"id": "a"})
    >>> Cursor.from_json(c.to_json()) == c
    True
    """

    family: str
    partition: int
    address: int | None = None
    key: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"f": self.family, "p": self.partition}
        if self.address is not None:
            found["a"] = str(self.address)  # beyond JSON's safe integers
        if self.key is not None:  # typed, so numbers and binaries come back as they went
            found["k"] = to_wire_item(self.key)
        return found

    @classmethod
    def from_json(cls, data: Any) -> Cursor:
        try:
            address, key = data.get("a"), data.get("k")
            return cls(
                str(data["f"]),
                int(data["p"]),
                None if address is None else int(address),
                None if key is None else to_item(key),
            )
        except (AttributeError, KeyError, TypeError, ValueError):
            raise BadQueryError("next", "malformed pagination token") from None

    def before(self, partition: int, last: int | None = None) -> bool:
        """Whether everything of ``partition`` (up to address ``last``) was delivered before this cursor."""
        if partition != self.partition:
            return partition < self.partition
        if self.address is None:  # sorted / scan: the partition is done only when no key is left
            return self.key is None
        return last is not None and (last < self.address or (last == self.address and self.key is None))
