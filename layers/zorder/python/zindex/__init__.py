"""zindex: Z-order and sorted indexes on any DynamoDB table, with a cost-based optimizer.

Built on :mod:`zorder` (the pure address library beside it in this layer). Each layer uses only the
ones above it:

* :mod:`zindex.spec` - what a table declares: attributes (types, domains) and its indexes;
* :mod:`zindex.kinds` - the kinds of index (Z, sorted), each one class answering one interface: its
  keys, its statistics, its candidate plans and their reader, its JSON;
* :mod:`zindex.keys` - an item's index keys (what the maintainer writes);
* :mod:`zindex.query` - a search's bounds and the exact filter;
* :mod:`zindex.equidepth`, :mod:`zindex.sizes`, :mod:`zindex.statistics` - what the optimizer knows;
* :mod:`zindex.plan`, :mod:`zindex.optimizer` - candidate plans, their cost, the choice;
* :mod:`zindex.cursor`, :mod:`zindex.readers`, :mod:`zindex.executor` - running a plan page by page;
* :mod:`zindex.dynamodb` - every DynamoDB call (boto3; the modules above need none);
* :mod:`zindex.maintainer`, :mod:`zindex.status`, :mod:`zindex.analyze` - keeping indexes and statistics
  current;
* :mod:`zindex.search` - the facade a route calls; :mod:`zindex.lambda_handler` - the maintainer Lambda.

What is public is what ``__all__`` lists, here and in :mod:`zindex.analyze` and :mod:`zindex.lambda_handler`
(docs/library.md documents each name); the other modules are the engine's inside. Only the Lambda
handler needs Powertools (the ``lambda`` extra); everything else needs boto3 at most, and planning not
even that.

>>> from zorder import Fixed, UInt
>>> from zindex import Attribute, IndexedTable, SortedIndex, ZIndex
>>> places = IndexedTable(
...     "Places", ("id",),
...     (Attribute("latitude", Fixed(-90, 90, 16)), Attribute("longitude", Fixed(-180, 180, 16), wraps=True),
...      Attribute("population", UInt(32), domain=(None, 2**20 - 1))),
...     (ZIndex("places-z", ("latitude", "longitude", "population"), 11),
...      SortedIndex("places-population", "population", shards=4)))
>>> places.schema("places-z").bits
64
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

import zindex.kinds  # noqa: F401 - registers the kinds, so that any declaration read from JSON finds them
from zorder import __version__ as __version__  # one version for the distribution, which carries both packages

if TYPE_CHECKING:
    from zindex.cursor import Cursor
    from zindex.dynamodb import IndexRepository
    from zindex.errors import BadQueryError, StaleImageError, StatisticsError, UnencodableError, ZIndexError
    from zindex.keys import index_keys
    from zindex.kinds import SortedIndex, ZIndex
    from zindex.maintainer import BatchResult, maintain
    from zindex.plan import CostModel, Estimate, Plan, Span
    from zindex.query import SearchQuery
    from zindex.search import Searcher, SearchPage
    from zindex.spec import ENV, Attribute, IndexedTable

# The names below load with their module on first use (PEP 562), so that a function importing
# ``zindex`` for its errors or its declaration does not pay at init for modules it never touches (nor
# import boto3: only the repository's and the names above it need it).
_WHERE = {
    "ENV": "zindex.spec",
    "Attribute": "zindex.spec",
    "BadQueryError": "zindex.errors",
    "BatchResult": "zindex.maintainer",
    "CostModel": "zindex.plan",
    "Cursor": "zindex.cursor",
    "Estimate": "zindex.plan",
    "IndexRepository": "zindex.dynamodb",
    "IndexedTable": "zindex.spec",
    "Plan": "zindex.plan",
    "SearchPage": "zindex.search",
    "SearchQuery": "zindex.query",
    "Searcher": "zindex.search",
    "SortedIndex": "zindex.kinds",
    "Span": "zindex.plan",
    "StaleImageError": "zindex.errors",
    "StatisticsError": "zindex.errors",
    "UnencodableError": "zindex.errors",
    "ZIndex": "zindex.kinds",
    "ZIndexError": "zindex.errors",
    "index_keys": "zindex.keys",
    "maintain": "zindex.maintainer",
}

__all__ = [
    "ENV",
    "Attribute",
    "BadQueryError",
    "BatchResult",
    "CostModel",
    "Cursor",
    "Estimate",
    "IndexRepository",
    "IndexedTable",
    "Plan",
    "SearchPage",
    "SearchQuery",
    "Searcher",
    "SortedIndex",
    "Span",
    "StaleImageError",
    "StatisticsError",
    "UnencodableError",
    "ZIndex",
    "ZIndexError",
    "index_keys",
    "maintain",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'zindex' has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value  # once loaded, a plain module attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})
