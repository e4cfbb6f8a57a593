"""DynamoDB Local's order of table keys: SHA-1 of the salt ``LocalDdb`` and the key's bytes.

DynamoDB Local keeps a table's items, and the entries of an index that share their index keys, in the
order of this hash of the partition key (its ``LocalDBUtils.getHashValue``: UTF-8 for a string, the
bytes of a binary), and a Scan's segment ``s`` of ``n`` holds the keys whose hash lies in the ``s``-th
of ``n`` equal ranges. Checked item for item against DynamoDB Local 3.3 by the integration test. The
model keeps the first 64 bits, which order keys the same unless two share them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = ["key_hash", "key_hashes", "segment_of"]

SALT = b"LocalDdb"


def key_hash(value: Any) -> int:
    """The first 64 bits of DynamoDB Local's hash of a partition key's value (a number hashes its text,
    which DynamoDB Local encodes otherwise: tables keyed by numbers are ordered, not matched).

    >>> hex(key_hash("a"))
    '0xff7ab1ad619cdd52'
    """
    data = value if isinstance(value, bytes) else str(value).encode()
    return int.from_bytes(hashlib.sha1(SALT + data).digest()[:8])


def key_hashes(values: Iterable[Any]) -> np.ndarray:
    return np.fromiter((key_hash(v) for v in values), dtype=np.uint64)


def segment_of(hashed: int, segments: int) -> int:
    """The Scan segment of a key whose hash is ``hashed``.

    >>> segment_of(key_hash("a"), 4)
    3
    """
    return (hashed * segments) >> 64
