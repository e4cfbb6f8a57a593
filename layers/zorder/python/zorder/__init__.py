"""zorder: typed Z-order (Morton) addresses for DynamoDB sort keys.

Pure Python, standard library only. Layers, each built on the previous ones:

* :mod:`zorder.bits` - interleave / deinterleave (the bit order is documented there);
* :mod:`zorder.encodings` - order-preserving keys for ``UInt``, ``Int``, ``Float``, ``Fixed``, ``Text``,
  ``Timestamp``, ``Bool``;
* :mod:`zorder.box`, :mod:`zorder.bigmin` - query boxes and the Tropf-Herzog BIGMIN / LITMAX jumps;
* :mod:`zorder.ranges` - a box as runs of consecutive addresses, within a budget;
* :mod:`zorder.dimension`, :mod:`zorder.schema`, :mod:`zorder.serial` - named dimensions, addresses as
  bytes, the schema as JSON.

What a search costs, and which indexes a table should have, is the engine's business (:mod:`zindex`:
its optimizer and advisor price plans from the table's statistics).

>>> from zorder import Fixed, Schema, UInt
>>> places = Schema.of(latitude=Fixed(-90, 90, 16), longitude=Fixed(-180, 180, 16), population=UInt(32))
>>> len(places.encode({"latitude": 35.68, "longitude": 139.69, "population": 13_960_000}))
8
"""

from __future__ import annotations

from zorder.box import Box
from zorder.dimension import Dimension
from zorder.encodings import Bool, Encoding, Fixed, Float, Int, Text, Timestamp, UInt
from zorder.schema import Schema

# The distribution's version (layers/zorder/pyproject.toml reads it from here; CHANGELOG.md says what
# each one holds). Semantic versioning over the names in ``__all__``: see docs/library.md.
__version__ = "0.2.0"

__all__ = [
    "Bool",
    "Box",
    "Dimension",
    "Encoding",
    "Fixed",
    "Float",
    "Int",
    "Schema",
    "Text",
    "Timestamp",
    "UInt",
]
