"""The kinds of index, and the registry that reads and writes the ``kind`` tag of their JSON.

Every kind implements :class:`zindex.kinds.base.Index`; a new kind is one new class and one entry in
:data:`KINDS`. Nothing else in the engine names a kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zindex.kinds.base import Index
from zindex.kinds.sorted import SortedIndex
from zindex.kinds.z import ZIndex

__all__ = ["KINDS", "Index", "SortedIndex", "ZIndex", "index_from_dict", "index_to_dict"]

KINDS: Mapping[str, type[Index]] = {kind.kind: kind for kind in (ZIndex, SortedIndex)}


def index_to_dict(index: Index) -> dict[str, Any]:
    """An index as JSON values, tagged with its kind.

    >>> index_to_dict(SortedIndex("pop", "population"))
    {'kind': 'sorted', 'name': 'pop', 'attribute': 'population', 'shards': 4, 'shard_attribute': 'zshard'}
    """
    return {"kind": index.kind, **index.to_dict()}


def index_from_dict(data: Mapping[str, Any]) -> Index:
    """Inverse of :func:`index_to_dict`."""
    fields = dict(data)
    kind = fields.pop("kind", None)
    if kind not in KINDS:
        raise ValueError(f"unknown index kind {kind!r}; expected one of {sorted(KINDS)}")
    return KINDS[kind].from_dict(fields)
