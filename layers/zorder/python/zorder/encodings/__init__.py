"""Order-preserving encodings: one small frozen dataclass per type, plus JSON/spec (de)serialisation.

Each encoding maps a value to an unsigned int of ``bits`` bits such that ``a < b`` implies
``encode(a) <= encode(b)``, with ties only where the type says so (a ``Text`` prefix, a ``Fixed`` step,
a millisecond, a binary32 rounding). That is all the seed asks of a dimension: its bytes need not be
reversible, only sorted like the values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol, runtime_checkable

from zorder.encodings._base import MAX_BITS, OutOfRange
from zorder.encodings.integers import Bool, Int, UInt
from zorder.encodings.reals import Fixed, Float, sign_magnitude_key
from zorder.encodings.text import Text, Timestamp, epoch_ms

__all__ = [
    "ENCODINGS",
    "MAX_BITS",
    "Bool",
    "Encoding",
    "Fixed",
    "Float",
    "Int",
    "OutOfRange",
    "Text",
    "Timestamp",
    "UInt",
    "encoding_from_dict",
    "encoding_from_spec",
    "encoding_to_dict",
    "epoch_ms",
    "sign_magnitude_key",
]


@runtime_checkable
class Encoding(Protocol):
    """What a schema needs from a dimension's type."""

    kind: ClassVar[str]

    @property
    def bits(self) -> int: ...
    def encode(self, value: Any) -> int: ...
    def decode(self, key: int) -> Any: ...
    def bound(self, value: Any, *, upper: bool) -> int: ...
    def parse(self, text: str) -> Any: ...
    def params(self) -> dict[str, Any]: ...


ENCODINGS: Mapping[str, Callable[..., Encoding]] = {
    cls.kind: cls for cls in (UInt, Int, Float, Fixed, Text, Timestamp, Bool)
}


def encoding_to_dict(encoding: Encoding) -> dict[str, Any]:
    """The JSON form of an encoding: its type and constructor parameters.

    >>> encoding_to_dict(Fixed(-90, 90, 16))
    {'type': 'fixed', 'lo': -90, 'hi': 90, 'bits': 16}
    """
    return {"type": encoding.kind, **encoding.params()}


def encoding_from_dict(data: Mapping[str, Any]) -> Encoding:
    """Inverse of :func:`encoding_to_dict`.

    >>> encoding_from_dict({"type": "uint", "bits": 32})
    UInt(bits=32)
    """
    params = dict(data)
    kind = params.pop("type", None)
    if kind not in ENCODINGS:
        raise ValueError(f"unknown encoding type {kind!r}; expected one of {sorted(ENCODINGS)}")
    try:
        return ENCODINGS[kind](**params)
    except TypeError as exc:
        raise ValueError(f"bad parameters {params} for {kind!r}: {exc}") from None


def _number(token: str) -> int | float:
    try:
        return int(token)
    except ValueError:
        return float(token)


def encoding_from_spec(spec: str) -> Encoding:
    """Read the compact form ``type:param:param...`` (parameters in constructor order).

    >>> encoding_from_spec("fixed:-90:90:16"), encoding_from_spec("bool")
    (Fixed(lo=-90, hi=90, bits=16), Bool())
    """
    kind, *args = spec.strip().split(":")
    if kind.lower() not in ENCODINGS:
        raise ValueError(f"unknown encoding type {kind!r} in {spec!r}; expected one of {sorted(ENCODINGS)}")
    try:
        return ENCODINGS[kind.lower()](*(_number(a) for a in args))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad encoding spec {spec!r}: {exc}") from None
