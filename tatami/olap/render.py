"""Results as text: an aligned table (numbers to the right), CSV or JSON lines."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

FORMATS = ("table", "csv", "json")


def _text(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return f"{value:,.3f}"
    if isinstance(value, int | Decimal) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def render(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str = "table") -> str:
    """The result in `fmt`.

    >>> print(render(["status", "orders"], [("PENDING", 1200), ("ORDERED", 3)]))
    status  | orders
    --------+-------
    PENDING |  1,200
    ORDERED |      3
    (2 rows)
    """
    if fmt == "json":
        return "\n".join(json.dumps(dict(zip(columns, row, strict=True)), default=str) for row in rows)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(rows)
        return out.getvalue().rstrip("\n")
    cells = [[_text(value) for value in row] for row in rows]
    widths = [max([len(name), *(len(row[i]) for row in cells)]) for i, name in enumerate(columns)]
    right = [
        bool(rows) and all(_numeric(row[i]) or row[i] is None for row in rows) for i in range(len(columns))
    ]
    lines = [" | ".join(name.ljust(width) for name, width in zip(columns, widths, strict=True))]
    lines.append("-+-".join("-" * width for width in widths))
    for row in cells:
        lines.append(
            " | ".join(
                value.rjust(width) if align else value.ljust(width)
                for value, width, align in zip(row, widths, right, strict=True)
            )
        )
    lines.append(f"({len(rows)} row{'' if len(rows) == 1 else 's'})")
    return "\n".join(lines)
