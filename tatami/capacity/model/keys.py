"""Where a key lives in a table's key space: a 64-bit hash of the partition key, then the sort key.

DynamoDB hashes each partition key value and a partition owns a range of hash values; a split
inside an item collection also uses the sort key (seed 003). A *position* is therefore the pair
(hash, sort key bytes), and partitions are ranges of positions. AWS does not publish its hash
function: the model uses MD5 salted with the simulation's seed, so different seeds show how much a
result depends on where the keys happen to land.
"""

from __future__ import annotations

import hashlib
import math
from decimal import Context, Decimal

__all__ = ["HASH_SPACE", "Position", "key_hash", "sort_bytes"]

HASH_SPACE = 1 << 64
Position = tuple[int, bytes]  # (hash of the partition key, sort key bytes; b"" for none)

_INT_BYTES = 17  # two's-complement offset of 136 bits: IPv6 addresses (2^128) and negatives fit
_INT_OFFSET = 1 << (8 * _INT_BYTES - 1)
_EXACT = Context(prec=2000)


def key_hash(partition_key: str, seed: int = 0) -> int:
    """The 64-bit hash of a partition key value under `seed`.

    >>> key_hash("votes-A#7") == key_hash("votes-A#7"), key_hash("a") == key_hash("a", seed=1)
    (True, False)
    """
    digest = hashlib.md5(f"{seed}\x00{partition_key}".encode(), usedforsecurity=False).digest()
    return int.from_bytes(digest[:8], "big")


def sort_bytes(value: object) -> bytes:
    """Bytes whose order is the sort key's order (numbers by value, strings and binary by bytes).

    Numbers sort before strings, strings before binary: a table has one sort key type, so mixing
    only matters for recorded traffic of different tables, which never share a key space.

    >>> sort_bytes(2) < sort_bytes(10) < sort_bytes("a") < sort_bytes(b"a")
    True
    >>> sort_bytes(-1.5) < sort_bytes(-1) < sort_bytes(0.25) < sort_bytes(1)
    True
    """
    if value is None:
        return b""
    if isinstance(value, bool):
        raise TypeError("a sort key is a string, a number or binary, not a boolean")
    if isinstance(value, int):
        return b"\x01" + (value + _INT_OFFSET).to_bytes(_INT_BYTES, "big")
    if isinstance(value, float | Decimal):
        return _number_bytes(value)
    if isinstance(value, str):
        return b"\x02" + value.encode()
    if isinstance(value, bytes | bytearray):
        return b"\x03" + bytes(value)
    raise TypeError(f"a sort key is a string, a number or binary, not {type(value).__name__}")


def _number_bytes(value: float | Decimal) -> bytes:
    """A number: its integer part, then the exact digits of its fraction (digits sort as they compare)."""
    exact = Decimal(value)
    whole = math.floor(exact)
    fraction = _EXACT.subtract(exact, Decimal(whole))  # a double's expansion has at most ~1,100 digits
    digits = format(fraction, "f")[2:].rstrip("0") if fraction else ""
    return b"\x01" + (whole + _INT_OFFSET).to_bytes(_INT_BYTES, "big") + digits.encode()
