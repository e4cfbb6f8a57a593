"""Every place's index keys at once: what the maintainer writes (``zindex.keys.index_keys``), for 10^8
items in minutes rather than the hours one call per item would take.

The same steps, on arrays: each attribute saturated into its domain and encoded (``Fixed``: the nearest
of its steps; ``UInt``: as is), the Z address interleaved bit by bit at the positions
``zorder.bits.positions`` gives, the bucket its top ``bucket_bits``, and a sorted index's shard the
CRC-32 of the item's key modulo its shards. ``tests/unit/tatami/zindex_growth/test_keys.py`` holds
them equal to the engine's own, item for item, the edges included.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import numpy as np

from tatami.dynamodb_model.columns import Binaries, Column
from tatami.dynamodb_model.numbers import Numbers
from tatami.dynamodb_model.texts import Formatted, Texts
from zindex import IndexedTable, SortedIndex, ZIndex
from zorder import Fixed, UInt

__all__ = ["addresses", "codes", "crc32", "index_columns", "keys_of", "numbers"]

CHUNK = 5_000_000  # rows keyed at once

_CRC_TABLE = np.zeros(256, dtype=np.uint32)
for _byte in range(256):
    _value = _byte
    for _ in range(8):
        _value = (_value >> 1) ^ (0xEDB88320 if _value & 1 else 0)
    _CRC_TABLE[_byte] = _value


def crc32(texts: Formatted, rows: np.ndarray) -> np.ndarray:
    """``zlib.crc32`` of each row's text (fixed-width digits after a prefix), for many rows at once.

    >>> import zlib
    >>> int(crc32(Formatted(10**6, "p", 7), np.array([123]))[0]) == zlib.crc32(b"p0000123")
    True
    """
    crc = np.full(len(rows), 0xFFFFFFFF, dtype=np.uint32)
    for byte in texts.prefix.encode():
        crc = _CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    numbers = rows.astype(np.int64)
    for place in range(texts.width - 1, -1, -1):
        digit = (numbers // 10**place) % 10 + ord("0")
        crc = _CRC_TABLE[(crc ^ digit.astype(np.uint32)) & 0xFF] ^ (crc >> 8)
    return np.asarray(crc ^ 0xFFFFFFFF, dtype=np.uint32)


def keys_of(table: IndexedTable, attribute: str, values: np.ndarray, saturate: bool = True) -> np.ndarray:
    """An attribute's encoded keys, saturated into its domain as a Z address stores them (or not: as
    a sorted index's statistics count them)."""
    declared = table.attribute(attribute)
    low, high = declared.domain
    if saturate and (low is not None or high is not None):
        values = np.clip(values, low, high)
    encoding = declared.encoding
    if isinstance(encoding, Fixed):
        if np.any(values < encoding.lo) or np.any(values > encoding.hi):
            raise ValueError(f"{attribute}: values beyond {encoding.lo}..{encoding.hi} are not encodable")
        scale = ((1 << encoding.bits) - 1) / (encoding.hi - encoding.lo)
        steps = ((values - encoding.lo) * scale + 0.5).astype(np.int64)
        return np.minimum(steps, (1 << encoding.bits) - 1).astype(np.uint64)
    if isinstance(encoding, UInt):
        if np.any(values < 0) or np.any(values >= 2**encoding.bits):
            raise ValueError(f"{attribute}: values beyond UInt({encoding.bits}) are not encodable")
        return values.astype(np.uint64)
    raise ValueError(f"{attribute}: {type(encoding).__name__} keys are not computed in bulk")


def codes(numbers: np.ndarray, vocabulary: int) -> np.ndarray:
    """Codes into a vocabulary of ``vocabulary`` strings, in the smallest signed type (-1: absent)."""
    kind = next(t for t in (np.int8, np.int16, np.int32, np.int64) if vocabulary < np.iinfo(t).max)
    return numbers.astype(kind)


def addresses(table: IndexedTable, index: ZIndex, values: Mapping[str, np.ndarray]) -> np.ndarray:
    """The Z addresses of rows (``values``: each attribute the index orders by)."""
    schema = table.schema(index.name)
    if schema.bits > 64:
        raise ValueError(f"{index.name}: addresses of {schema.bits} bits are more than the model's 64")
    address = np.zeros(len(values[schema.dimensions[0].name]), dtype=np.uint64)
    for dimension, positions in zip(schema.dimensions, schema.layout.positions, strict=True):
        keys = keys_of(table, dimension.name, values[dimension.name])
        for byte, spread in enumerate(_spread_tables(positions)):  # one lookup per byte of the key
            address |= spread[(keys >> np.uint64(8 * byte)) & np.uint64(255)]
    return address


@lru_cache(maxsize=64)
def _spread_tables(positions: tuple[int, ...]) -> list[np.ndarray]:
    """Per byte of a dimension's key, each byte value's bits at their address positions."""
    values = np.arange(256, dtype=np.uint64)
    tables = []
    for first in range(0, len(positions), 8):
        table = np.zeros(256, dtype=np.uint64)
        for bit, position in enumerate(positions[first : first + 8]):
            table |= ((values >> np.uint64(bit)) & np.uint64(1)) << np.uint64(position)
        tables.append(table)
    return tables


def numbers(column: Numbers, start: int, stop: int) -> np.ndarray:
    """Rows ``start..stop`` of a number column as the numbers they hold (floats when scaled: the
    float of a decimal, as ``zorder`` encodes it)."""
    units = column.units[start:stop]
    return units / 10**column.scale if column.scale else units.astype(np.int64)


def _z_columns(table: IndexedTable, index: ZIndex, columns: Mapping[str, Numbers]) -> dict[str, Column]:
    count = next(iter(columns.values())).rows
    address = np.empty(count, dtype=np.uint64)
    for start in range(0, count, CHUNK):  # a few temporaries of a chunk each, not of the whole table
        stop = min(start + CHUNK, count)
        values = {name: numbers(columns[name], start, stop) for name in index.attributes}
        address[start:stop] = addresses(table, index, values)
    names = [index.bucket_name(n) for n in range(1 << index.bucket_bits)]
    buckets = codes(address >> np.uint64(index.bucket_shift(table)), len(names))
    return {
        index.bucket_attribute: Texts(buckets, names),
        index.address_attribute: Binaries(address, table.schema(index.name).nbytes),
    }


def _shards(index: SortedIndex, ids: Formatted) -> Column:
    shards = np.empty(ids.rows, dtype=np.int64)
    for start in range(0, ids.rows, CHUNK):
        rows = np.arange(start, min(start + CHUNK, ids.rows))
        shards[start : start + len(rows)] = crc32(ids, rows) % np.uint32(index.shards)
    names = [index.shard_name(n) for n in range(index.shards)]
    return Texts(codes(shards, len(names)), names)


def index_columns(table: IndexedTable, columns: Mapping[str, Numbers], ids: Formatted) -> dict[str, Column]:
    """The index key columns of every row (``columns``: each declared attribute's; ``ids``: the
    table's key)."""
    found: dict[str, Column] = {}
    for index in table.indexes:
        if isinstance(index, ZIndex):
            found |= _z_columns(table, index, columns)
        elif isinstance(index, SortedIndex):
            found[index.shard_attribute] = _shards(index, ids)
        else:
            raise ValueError(f"{index.name}: {index.kind} keys are not computed in bulk")
    return found
