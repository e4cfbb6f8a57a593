"""Encodings of text and time: fixed-width UTF-8 ``Text`` and ``Timestamp`` (epoch milliseconds)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar

from zorder.encodings._base import EncodingBase, OutOfRange, as_int, check_bits

__all__ = ["Text", "Timestamp"]


@dataclass(frozen=True, slots=True)
class Text(EncodingBase):
    """Text as its first ``nbytes`` bytes of NFC-normalised UTF-8, zero-padded when shorter.

    UTF-8 bytes already sort like code points. Fixing the width (the seed's 4-byte table) keeps the
    order but makes words sharing a prefix collide: "cart", "carton" and "cartographer" share a key, so
    queries read some extra items that the filter expression then drops. NFC first, so that canonically
    equal strings (precomposed or combining accents) get one key.

    >>> Text(4).encode("car").to_bytes(4).hex(" ")
    '63 61 72 00'
    >>> Text(4).encode("cartographer") == Text(4).encode("cart")
    True
    """

    nbytes: int
    kind: ClassVar[str] = "text"
    bits: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_bits("Text", self.nbytes, high=1024)  # nbytes is checked like a width, in bytes
        object.__setattr__(self, "bits", 8 * self.nbytes)

    def encode(self, value: Any) -> int:
        if not isinstance(value, str):
            raise TypeError(f"{self!r} expects str, got {type(value).__name__}")
        data = unicodedata.normalize("NFC", value).encode("utf-8")[: self.nbytes]
        return int.from_bytes(data) << (8 * (self.nbytes - len(data)))

    def decode(self, key: int) -> str:
        """The stored prefix, trailing zero bytes and any cut multi-byte character dropped."""
        return key.to_bytes(self.nbytes).rstrip(b"\0").decode("utf-8", errors="ignore")

    def parse(self, text: str) -> str:
        """Text is its own textual form.

        >>> Text(4).parse("cart")
        'cart'
        """
        return text


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)
_INTEGER = re.compile(r"[+-]?\d+")


def epoch_ms(value: Any) -> int:
    """Milliseconds since 1970-01-01T00:00Z of an aware datetime, ISO-8601 text with an offset, or an int.

    Sub-millisecond parts are floored, which keeps the order. Naive datetimes are rejected: their
    instant depends on the machine's zone, so two writers could store one moment under two keys.

    >>> epoch_ms("1970-01-01T00:00:01.5Z"), epoch_ms(-5)
    (1500, -5)
    """
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(f"{value!r} is not ISO-8601 text such as '2024-05-01T12:00:00Z'") from None
    if isinstance(value, datetime):
        if value.utcoffset() is None:
            raise ValueError(
                f"naive datetime {value.isoformat()!r}: attach a zone, e.g. .replace(tzinfo=timezone.utc),"
                " or write the offset ('Z', '+09:00') in the text"
            )
        return (value - _EPOCH) // _MS
    return as_int(value, "Timestamp (a datetime, ISO-8601 text, or epoch milliseconds)")


@dataclass(frozen=True, slots=True)
class Timestamp(EncodingBase):
    """An instant as signed epoch milliseconds, sign bit flipped like :class:`Int` (bits >= 2).

    Input: an aware ``datetime``, ISO-8601 text with an offset, or an int / integral ``Decimal`` of
    epoch milliseconds (the seed's epoch form). Signed, so instants before 1970 work too; 64 bits cover
    every ``datetime``, 43 bits the years 1831-2109, 42 bits April 1900 - September 2039.

    >>> Timestamp(64).encode("1970-01-01T00:00:00Z") == 1 << 63
    True
    >>> Timestamp(64).decode((1 << 63) + 86_400_000).isoformat()
    '1970-01-02T00:00:00+00:00'
    """

    bits: int = 64
    kind: ClassVar[str] = "timestamp"

    def __post_init__(self) -> None:
        check_bits("Timestamp", self.bits, low=2)

    def encode(self, value: Any) -> int:
        ms = epoch_ms(value)
        half = 1 << (self.bits - 1)
        if -half <= ms < half:
            return ms + half
        raise OutOfRange(f"{self!r} holds epoch ms {-half}..{half - 1}, got {ms}", below=ms < 0)

    def decode(self, key: int) -> datetime:
        """The instant (UTC); ``ValueError`` for keys outside ``datetime``'s years 1..9999."""
        try:
            return _EPOCH + (key - (1 << (self.bits - 1))) * _MS
        except OverflowError:
            raise ValueError(f"key {key} is outside datetime's range") from None

    def parse(self, text: str) -> int | str:
        """Epoch milliseconds if the text is an integer, else ISO-8601 text (encoded later).

        >>> Timestamp().parse("1700000000000"), Timestamp().parse("2024-05-01T00:00Z")
        (1700000000000, '2024-05-01T00:00Z')
        """
        return int(text) if _INTEGER.fullmatch(text.strip()) else text
