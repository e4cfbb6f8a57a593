"""A named dimension (name + encoding), and encoding a record into one key per dimension.

Error messages are made here, once: the encodings describe what is wrong with a value, and this
module prefixes the dimension's name so the caller knows which attribute to fix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zorder.encodings import Encoding, encoding_from_dict, encoding_from_spec, encoding_to_dict

__all__ = ["Dimension", "dimensions_from_spec", "encode_point"]


def _named(exc: Exception, name: str) -> Exception:
    """Same kind of error (TypeError or ValueError), message prefixed with the dimension's name."""
    kind = TypeError if isinstance(exc, TypeError) else ValueError
    return kind(f"dimension {name!r}: {exc}")


@dataclass(frozen=True, slots=True)
class Dimension:
    """One attribute of a schema: its name and its :class:`~zorder.encodings.Encoding`.

    >>> from zorder.encodings import UInt
    >>> Dimension("population", UInt(32)).encode(1_400_000)
    1400000
    """

    name: str
    encoding: Encoding

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a dimension name must be a non-empty str, got {self.name!r}")
        if not isinstance(self.encoding, Encoding):
            raise TypeError(
                f"dimension {self.name!r}: {self.encoding!r} is not an encoding; "
                "use UInt, Int, Float, Fixed, Text, Timestamp or Bool"
            )

    @property
    def bits(self) -> int:
        return self.encoding.bits

    def encode(self, value: Any) -> int:
        """Encode one value; errors name the dimension and its type."""
        try:
            return self.encoding.encode(value)
        except (TypeError, ValueError) as exc:
            raise _named(exc, self.name) from None

    def bound(self, value: Any, *, upper: bool) -> int:
        """Encode a box bound (clamped where harmless, see ``EncodingBase.bound``)."""
        try:
            return self.encoding.bound(value, upper=upper)
        except (TypeError, ValueError) as exc:
            raise _named(exc, self.name) from None

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"name": ..., "type": ..., <parameters>}``.

        >>> from zorder.encodings import Text
        >>> Dimension("word", Text(4)).to_dict()
        {'name': 'word', 'type': 'text', 'nbytes': 4}
        """
        return {"name": self.name, **encoding_to_dict(self.encoding)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Dimension:
        """Inverse of :meth:`to_dict`."""
        params = dict(data)
        name = params.pop("name", None)
        try:
            return cls(name, encoding_from_dict(params))  # the name is checked in __post_init__
        except ValueError as exc:
            raise ValueError(f"dimension {name!r}: {exc}") from None


def encode_point(dimensions: Sequence[Dimension], record: Any) -> tuple[int, ...]:
    """Encode a record (a mapping name -> value) into one key per dimension, in schema order.

    >>> from zorder.encodings import Int, UInt
    >>> encode_point([Dimension("a", UInt(8)), Dimension("b", Int(8))], {"a": 3, "b": -1})
    (3, 127)
    """
    if not isinstance(record, Mapping):
        raise TypeError(f"a record is a mapping of dimension name -> value, got {type(record).__name__}")
    keys = []
    for dim in dimensions:
        if dim.name not in record:
            names = ", ".join(d.name for d in dimensions)
            raise ValueError(
                f"missing dimension {dim.name!r}: every dimension of the schema is required ({names})"
            )
        keys.append(dim.encode(record[dim.name]))
    return tuple(keys)


def dimensions_from_spec(spec: str) -> tuple[Dimension, ...]:
    """Read ``name:type:param...`` items separated by commas (the command line's compact form).

    >>> [d.name for d in dimensions_from_spec("latitude:fixed:-90:90:16, population:uint:32")]
    ['latitude', 'population']
    """
    items = [item.strip() for item in spec.split(",") if item.strip()]
    pairs = [item.partition(":") for item in items]
    if not items or any(not name or not rest for name, _, rest in pairs):
        raise ValueError(f"expected 'name:type:param...,...' such as 'a:uint:16,b:int:8', got {spec!r}")
    return tuple(Dimension(name.strip(), encoding_from_spec(rest)) for name, _, rest in pairs)
