"""zorder: typed Z-order (Morton) addresses for DynamoDB sort keys.

Pure Python, standard library only. Layers, each built on the previous ones:

* :mod:`zorder.bits` - interleave / deinterleave (the bit order is documented there);
* :mod:`zorder.encodings` - order-preserving keys for ``UInt``, ``Int``, ``Float``, ``Fixed``, ``Text``,
  ``Timestamp``, ``Bool``;
* :mod:`zorder.box`, :mod:`zorder.bigmin` - query boxes and the Tropf-Herzog BIGMIN / LITMAX jumps;
* :mod:`zorder.ranges` - a box as runs of consecutive addresses, within a budget;
* :mod:`zorder.dimension`, :mod:`zorder.schema`, :mod:`zorder.serial` - named dimensions, addresses as
  bytes, the schema as JSON;
* :mod:`zorder.cost`, :mod:`zorder.advisor`, :mod:`zorder.report` - the seed's cost formula and advice.

>>> from zorder import Fixed, Schema, UInt
>>> places = Schema.of(latitude=Fixed(-90, 90, 16), longitude=Fixed(-180, 180, 16), population=UInt(32))
>>> len(places.encode({"latitude": 35.68, "longitude": 139.69, "population": 13_960_000}))
8
"""

from __future__ import annotations

from zorder.advisor import Advice, WorkloadQuery, advise
from zorder.box import Box
from zorder.cost import Estimate, estimate, explain, formula_rows, seed_formula
from zorder.dimension import Dimension
from zorder.encodings import Bool, Encoding, Fixed, Float, Int, Text, Timestamp, UInt
from zorder.report import advice_table, estimate_table, formula_table
from zorder.schema import Schema

__all__ = [
    "Advice",
    "Bool",
    "Box",
    "Dimension",
    "Encoding",
    "Estimate",
    "Fixed",
    "Float",
    "Int",
    "Schema",
    "Text",
    "Timestamp",
    "UInt",
    "WorkloadQuery",
    "advice_table",
    "advise",
    "estimate",
    "estimate_table",
    "explain",
    "formula_rows",
    "formula_table",
    "seed_formula",
]
