"""The kinds of index, registered under their JSON tags.

Every kind implements :class:`zindex.spec.Index`; a new kind is one new class (a module here) and one
line below. Nothing else in the engine names a kind. The package ``zindex`` imports this module first
thing, so a declaration read from JSON always finds its kinds.
"""

from __future__ import annotations

from zindex.kinds.sorted import SortedIndex
from zindex.kinds.z import ZIndex
from zindex.spec import KINDS, Index, index_from_dict, index_to_dict

__all__ = ["KINDS", "Index", "SortedIndex", "ZIndex", "index_from_dict", "index_to_dict"]

for _kind in (ZIndex, SortedIndex):  # the registry: one entry per kind
    KINDS[_kind.kind] = _kind
