"""CSV files -> validated rows. Every bad row is reported with its file and line; none is skipped.

Format (seed 003): a header row, then one range per row, as ``start,end`` (inclusive) or as
``network`` (CIDR), plus any metadata columns, which become the lookup's ``data``. Cells are
trimmed, so the seed's space-aligned form loads as is. When both forms are present, ``start,end``
locate the range and ``network`` is metadata.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tatami.ip_loader.exceptions import InvalidSourceError
from tatami_functions.ip_lookup.addresses import Address, parse_address, parse_network
from tatami_functions.ip_lookup.exceptions import InvalidAddressError

MAX_REPORTED = 50  # problems listed in full; the rest are counted


@dataclass(frozen=True, slots=True)
class Row:
    origin: str  # "file.csv:12"
    start: Address
    end: Address
    data: dict[str, str]


@dataclass(frozen=True, slots=True)
class Source:
    rows: list[Row]  # the rows that parsed
    digest: str  # sha256 of the files' bytes, in order: identifies the load for resuming
    problems: list[str]  # "file:line: why", at most MAX_REPORTED
    more: int = 0  # problems beyond those listed


class _Problems:
    def __init__(self) -> None:
        self.listed: list[str] = []
        self.more = 0

    def add(self, message: str) -> None:
        if len(self.listed) < MAX_REPORTED:
            self.listed.append(message)
        else:
            self.more += 1

    def raise_any(self) -> None:
        if self.listed:
            raise InvalidSourceError(self.listed, self.more)


def read_source(paths: Sequence[Path], *, check: bool = True) -> Source:
    """Read and validate every file; InvalidSourceError lists each bad row (file:line: why).

    With ``check=False`` the problems are returned in the Source instead, beside the good rows.

    For example (not run as a doctest)::

        read_source([Path("ranges.csv")]).rows[0]
        # -> Row(origin='ranges.csv:2', start=Address(family=4, ...), end=..., data={'asn': '13335'})
    """
    digest, problems, rows = hashlib.sha256(), _Problems(), []
    for path in paths:
        raw = path.read_bytes()
        digest.update(hashlib.sha256(raw).digest())
        rows += _read_file(path.name, raw, problems)
    if check:
        problems.raise_any()
    return Source(rows, digest.hexdigest(), problems.listed, problems.more)


def _read_file(name: str, raw: bytes, problems: _Problems) -> list[Row]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problems.add(f"{name}: not UTF-8 text (byte {exc.start})")
        return []
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next((cells for cells in reader if any(c.strip() for c in cells)), None)
    if header is None:
        problems.add(f"{name}: empty file (expected a header row and ranges)")
        return []
    columns = _columns(name, reader.line_num, [c.strip() for c in header], problems)
    if columns is None:
        return []
    rows = []
    for cells in reader:
        if any(cell.strip() for cell in cells):
            row = _row(f"{name}:{reader.line_num}", [c.strip() for c in cells], columns, problems)
            rows += [row] if row else []
    return rows


def _columns(name: str, line: int, header: list[str], problems: _Problems) -> list[str] | None:
    where = f"{name}:{line}"
    lowered = [h.lower() for h in header]
    if _looks_like_data(header):
        problems.add(f"{where}: expected a header row (start,end or network, then metadata), found data")
    elif not ({"start", "end"} <= set(lowered) or "network" in lowered):
        problems.add(f"{where}: the header needs columns start,end or network (found {','.join(header)})")
    elif "" in header:
        problems.add(f"{where}: column {header.index('') + 1} has no name")
    elif len(set(lowered)) < len(lowered):
        duplicates = sorted({h for h in lowered if lowered.count(h) > 1})
        problems.add(f"{where}: duplicate column(s) {', '.join(duplicates)}")
    else:
        return header
    return None


def _looks_like_data(header: list[str]) -> bool:
    try:
        parse_address(header[0])
    except InvalidAddressError:
        return "/" in header[0] and header[0].split("/")[0].count(".") == 3
    return True


def _row(origin: str, cells: list[str], columns: list[str], problems: _Problems) -> Row | None:
    if len(cells) != len(columns):
        problems.add(f"{origin}: {len(cells)} cells, but the header has {len(columns)} columns")
        return None
    values = dict(zip(columns, cells, strict=True))
    lowered = {column.lower(): column for column in columns}
    located = {"start", "end"} <= set(lowered)
    try:
        if located:
            start = _address(values[lowered["start"]], "start")
            end = _address(values[lowered["end"]], "end")
        else:
            start, end = parse_network(values[lowered["network"]])
    except InvalidAddressError as exc:
        problems.add(f"{origin}: {exc}")
        return None
    location = {lowered["start"], lowered["end"]} if located else {lowered["network"]}
    data = {k: v for k, v in values.items() if k not in location}
    return _checked(Row(origin, start, end, data), problems)


def _address(text: str, column: str) -> Address:
    try:
        return parse_address(text)
    except InvalidAddressError as exc:
        raise InvalidAddressError(f"{column}: {exc}") from None


def _checked(row: Row, problems: _Problems) -> Row | None:
    if row.start.family != row.end.family:
        problems.add(
            f"{row.origin}: mixed families: start {row.start} is IPv{row.start.family} "
            f"but end {row.end} is IPv{row.end.family}"
        )
    elif row.start.value > row.end.value:
        problems.add(f"{row.origin}: start {row.start} > end {row.end} (swap them?)")
    else:
        return row
    return None
