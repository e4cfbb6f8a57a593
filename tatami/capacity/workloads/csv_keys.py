"""A CSV of keys -> (partition key, sort key) pairs, in file order; bad rows listed by line number."""

from __future__ import annotations

import csv
from pathlib import Path

__all__ = ["KeyFileError", "read_keys"]

MAX_REPORTED = 50


class KeyFileError(ValueError):
    """The file cannot be used as it is; the message lists every problem (file:line: why)."""


def read_keys(path: Path, key_column: str, sort_column: str | None = None) -> list[tuple[str, object]]:
    """The keys of every row. Sort keys made only of digits are numbers (ordered as numbers).

    >>> read_keys(Path("ranges.csv"), "prefix", "start")[:2]  # doctest: +SKIP
    [('1', 16777216), ('1', 16777472)]
    """
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise KeyFileError(f"{path}: cannot read it as UTF-8 text ({exc})") from None
    reader = csv.reader(text.splitlines())  # rows as lists: a dict a row costs a second a million rows
    header = next(reader, [])
    columns = [c for c in (key_column, sort_column) if c]
    missing = [c for c in columns if c not in header]
    if missing:
        found = ", ".join(header) or "no header"
        raise KeyFileError(f"{path}: no column {', '.join(map(repr, missing))} (the header has: {found})")
    key_at = header.index(key_column)
    sort_at = header.index(sort_column) if sort_column else None
    keys: list[tuple[str, object]] = []
    problems: list[str] = []
    for line, row in enumerate(reader, start=2):
        pk = row[key_at].strip() if key_at < len(row) else ""
        sk = (row[sort_at].strip() if sort_at < len(row) else "") if sort_at is not None else None
        if not pk or (sort_column and not sk):
            column = key_column if not pk else sort_column
            problems.append(f"{path.name}:{line}: empty {column!r}")
            continue
        keys.append((pk, int(sk) if sk and sk.isdigit() else sk))
    if problems:
        more = f"\n... and {len(problems) - MAX_REPORTED} more" if len(problems) > MAX_REPORTED else ""
        raise KeyFileError("\n".join(problems[:MAX_REPORTED]) + more)
    if not keys:
        raise KeyFileError(f"{path}: no rows after the header")
    return keys
