"""A schema as text: the JSON every function of the app shares, and the compact command-line spec.

JSON: ``{"format": "zorder.schema/1", "dimensions": [{"name": ..., "type": ..., <parameters>}, ...]}``,
dimensions in schema order, parameters in constructor order, so the text is stable and diffable.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Self

from zorder.dimension import Dimension, dimensions_from_spec
from zorder.encodings import Encoding

__all__ = ["FORMAT", "SchemaText"]

FORMAT = "zorder.schema/1"


class SchemaText:
    """Constructors from text and ``to_json``, mixed into :class:`zorder.Schema`."""

    __slots__ = ()
    dimensions: tuple[Dimension, ...]

    if TYPE_CHECKING:  # the dataclass Schema provides it; declared so that ``cls(...)`` type-checks

        def __init__(self, dimensions: tuple[Dimension, ...]) -> None: ...

    @classmethod
    def of(cls, **encodings: Encoding) -> Self:
        """Build from keyword arguments, in the order given.

        >>> from zorder import Fixed, Schema
        >>> Schema.of(latitude=Fixed(-90, 90, 16), longitude=Fixed(-180, 180, 16)).names
        ('latitude', 'longitude')
        """
        return cls(tuple(Dimension(name, enc) for name, enc in encodings.items()))

    @classmethod
    def from_spec(cls, spec: str) -> Self:
        """Build from ``name:type:param...`` items separated by commas.

        >>> from zorder import Schema
        >>> Schema.from_spec("latitude:fixed:-90:90:16,population:uint:32").bits
        48
        """
        return cls(dimensions_from_spec(spec))

    def to_json(self) -> str:
        """A stable JSON text holding each dimension's name, type and parameters.

        >>> from zorder import Schema, UInt
        >>> Schema.of(a=UInt(16)).to_json()
        '{"format": "zorder.schema/1", "dimensions": [{"name": "a", "type": "uint", "bits": 16}]}'
        """
        return json.dumps({"format": FORMAT, "dimensions": [d.to_dict() for d in self.dimensions]})

    @classmethod
    def from_json(cls, text: str | bytes) -> Self:
        """Inverse of :meth:`to_json`.

        >>> from zorder import Schema, Text
        >>> Schema.from_json(Schema.of(word=Text(4)).to_json()) == Schema.of(word=Text(4))
        True
        """
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a zorder schema: expected {{'format': {FORMAT!r}, 'dimensions': [...]}}")
        return cls(tuple(Dimension.from_dict(d) for d in data["dimensions"]))
