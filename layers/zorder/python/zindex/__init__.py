"""zindex: Z-order and sorted indexes on any DynamoDB table, with a cost-based optimizer.

Built on :mod:`zorder` (the pure address library beside it in this layer). Each layer uses only the
ones above it:

* :mod:`zindex.spec` - what a table declares: attributes (types, domains), Z and sorted indexes;
* :mod:`zindex.keys` - an item's index keys (what the maintainer writes);
* :mod:`zindex.query` - a search's bounds as boxes, key ranges and an exact filter;
* :mod:`zindex.equidepth`, :mod:`zindex.sizes`, :mod:`zindex.statistics` - what the optimizer knows;
* :mod:`zindex.plan`, :mod:`zindex.zplans`, :mod:`zindex.optimizer` - candidate plans, their cost, the choice;
* :mod:`zindex.cursor`, :mod:`zindex.readers`, :mod:`zindex.executor` - running a plan page by page;
* :mod:`zindex.dynamodb` - every DynamoDB call (boto3; the modules above need none);
* :mod:`zindex.maintainer`, :mod:`zindex.status`, :mod:`zindex.analyze` - keeping indexes and statistics
  current;
* :mod:`zindex.search` - the facade a route calls; :mod:`zindex.lambda_handler` - the maintainer Lambda.

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

from zindex.cursor import Cursor
from zindex.errors import BadQueryError, StaleImageError, StatisticsError, UnencodableError, ZIndexError
from zindex.plan import CostModel, Estimate, Plan, Span
from zindex.query import SearchQuery
from zindex.spec import ENV, Attribute, IndexedTable, SortedIndex, ZIndex

__all__ = [
    "ENV",
    "Attribute",
    "BadQueryError",
    "CostModel",
    "Cursor",
    "Estimate",
    "IndexedTable",
    "Plan",
    "SearchQuery",
    "SortedIndex",
    "Span",
    "StaleImageError",
    "StatisticsError",
    "UnencodableError",
    "ZIndex",
    "ZIndexError",
]
