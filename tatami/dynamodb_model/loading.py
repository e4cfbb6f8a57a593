"""Columns from items: what a table loaded item by item (a test's few thousand places) is stored as.

Each attribute becomes the column of its type: strings a vocabulary and codes, numbers integers of the
finest decimal step any value uses, binaries of one width (up to 8 bytes) unsigned integers. An item
with a value no column holds (a list, a longer binary: the engine's statistics item) stays a dict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

import numpy as np

from tatami.dynamodb_model.columns import Binaries, Column
from tatami.dynamodb_model.numbers import Numbers
from tatami.dynamodb_model.texts import Texts
from tatami.dynamodb_model.tokens import Unsupported

__all__ = ["columns_of"]

Item = Mapping[str, Any]


def _kind(value: Any) -> str | None:
    kind = type(value)
    if kind is str:
        return "S"
    if kind is int or (kind is Decimal and value.is_finite()):
        return "N"
    if kind is bytes and 1 <= len(value) <= 8:
        return "B"
    return None


def _numbers(values: list[Any], present: np.ndarray) -> Numbers:
    exponents = [Decimal(v).normalize().as_tuple().exponent for v in values if v is not None]
    scale = max([0, *(-e for e in exponents if isinstance(e, int))])
    units = [int(Decimal(v).scaleb(scale)) if v is not None else 0 for v in values]
    if any(abs(u) >= 1 << 63 for u in units):
        raise Unsupported("numbers beyond 18 digits at their finest step are not modelled as a column")
    return Numbers(np.array(units, dtype=np.int64), scale, None if present.all() else present)


def _column(name: str, values: list[Any]) -> Column:
    kinds = {_kind(v) for v in values if v is not None}
    present = np.array([v is not None for v in values])
    if kinds == {"S"}:
        vocabulary = list(dict.fromkeys(v for v in values if v is not None))
        code = {text: n for n, text in enumerate(vocabulary)}
        return Texts(np.array([code[v] if v is not None else -1 for v in values], dtype=np.int32), vocabulary)
    if kinds == {"N"}:
        return _numbers(values, present)
    widths = {len(v) for v in values if v is not None}
    if kinds == {"B"} and len(widths) == 1:
        numbers = np.array([int.from_bytes(v) if v is not None else 0 for v in values], dtype=np.uint64)
        return Binaries(numbers, widths.pop(), None if present.all() else present)
    raise Unsupported(
        f"attribute {name!r} mixes types or widths ({sorted(map(str, kinds))}, {sorted(widths)})"
    )


def columns_of(items: Sequence[Item]) -> tuple[dict[str, Column], list[Item]]:
    """The items as columns, and those no column can hold (to be kept as dicts)."""
    rows: list[Item] = []
    rest: list[Item] = []
    for item in items:
        (rows if all(map(_kind, item.values())) else rest).append(item)
    names = dict.fromkeys(n for item in rows for n in item)
    return {name: _column(name, [i.get(name) for i in rows]) for name in names}, rest
