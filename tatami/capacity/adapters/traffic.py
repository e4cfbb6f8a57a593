"""The local cloud's recorded traffic: its hottest keys (Contributor Insights) and its replay at scale.

`read_records` reads a session folder written by `tatami.local.engines.traffic`; `schemas_from` asks the
running DynamoDB Local which attribute is which key; `key_stats` ranks keys by the units they used
and their busiest second; `replay` turns the traffic into a workload of new tables (one key space
per table and per global secondary index) that sends the same requests at the same moments,
`scale` times over (the same mix of keys, `scale` times the rate).
"""

from __future__ import annotations

import base64
import json
import math
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tatami.capacity.adapters.accesses import Access, Schema
from tatami.capacity.model.keys import key_hash, sort_bytes
from tatami.capacity.model.space import KeySpace
from tatami.capacity.workloads.arrivals import Timed
from tatami.capacity.workloads.builders import Setting, Workload

__all__ = ["KeyStats", "key_stats", "label", "read_records", "replay", "schemas_from"]


def read_records(directory: Path) -> tuple[list[dict[str, Any]], int]:
    """Every recorded call of a session folder, oldest first, and how many lines were unreadable."""
    records, bad = [], 0
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:  # a worker killed mid-line leaves half a record
                bad += 1
    records.sort(key=lambda record: record["t"])
    return records, bad


def schemas_from(client: Any, tables: Iterable[str]) -> dict[str, Schema]:
    """The key attributes of each table and of its global secondary indexes (DescribeTable)."""
    schemas = {}
    for name in sorted(set(tables)):
        table = client.describe_table(TableName=name)["Table"]
        indexes = {
            index["IndexName"]: _keys(index["KeySchema"]) for index in table.get("GlobalSecondaryIndexes", [])
        }
        lsi = bool(table.get("LocalSecondaryIndexes"))
        schemas[name] = Schema(name, *_keys(table["KeySchema"]), indexes=indexes, lsi=lsi)
    return schemas


def _keys(key_schema: list[dict[str, str]]) -> tuple[str, str | None]:
    roles = {key["KeyType"]: key["AttributeName"] for key in key_schema}
    return roles["HASH"], roles.get("RANGE")


def label(value: Any) -> str:
    """An attribute value as a key label: S and N as they are, B as hex."""
    if value is None:
        return "(scan, or a key not in the request)"
    ((kind, data),) = value.items()
    return base64.b64decode(data).hex() if kind == "B" else str(data)


def _sort_key(value: Any) -> object:
    if value is None:
        return None
    ((kind, data),) = value.items()
    if kind == "N":
        number = float(data)
        return int(number) if number.is_integer() and "." not in data else number
    return base64.b64decode(data) if kind == "B" else data


@dataclass
class KeyStats:
    space: str  # "table" or "table index"
    key: str
    write_units: float = 0.0
    read_units: float = 0.0
    calls: int = 0
    per_second: dict[int, float] = field(default_factory=lambda: defaultdict(float))

    @property
    def units(self) -> float:
        return self.write_units + self.read_units

    @property
    def peak(self) -> float:
        return max(self.per_second.values(), default=0.0)


def space_name(access: Access) -> str:
    return f"{access.table} {access.index}" if access.index else access.table


def key_stats(accesses: Sequence[Access]) -> dict[str, list[KeyStats]]:
    """Per table or index, its keys by units used (most first), like Contributor Insights."""
    stats: dict[tuple[str, str], KeyStats] = {}
    start = accesses[0].time if accesses else 0.0
    for access in accesses:
        name, key = space_name(access), label(access.pk)
        entry = stats.setdefault((name, key), KeyStats(name, key))
        entry.write_units += access.units if access.write else 0.0
        entry.read_units += 0.0 if access.write else access.units
        entry.calls += 1
        entry.per_second[int(access.time - start)] += access.units
    ranked: dict[str, list[KeyStats]] = defaultdict(list)
    for entry in sorted(stats.values(), key=lambda entry: -entry.units):
        ranked[entry.space].append(entry)
    return dict(ranked)


def replay(accesses: Sequence[Access], setting: Setting, scale: float = 1.0) -> Workload:
    """The recorded traffic as a workload on new tables: each call `scale` times (same keys, same time)."""
    if scale <= 0:
        raise ValueError(f"scale {scale} must be positive")
    builder = _Replay(setting, scale)
    items: dict[tuple[int, int], list[Access]] = defaultdict(list)
    for access in accesses:
        items[access.call, access.item].append(access)
    start = accesses[0].time if accesses else 0.0
    copies_of: dict[int, int] = {}
    events: list[tuple[float, tuple[Any, ...], int]] = []
    for (call, _), group in items.items():
        copies = copies_of.get(call)
        if copies is None:
            copies = copies_of[call] = builder.copies()
        if copies:
            events.extend(
                (group[0].time - start, request, copies) for request in builder.requests(group, copies)
            )
    workload = Workload(
        f"recorded traffic x{scale:g}",
        list(builder.spaces.values()),
        Timed(events, setting.sdk(), setting.seed),
        builder.labels,
        builder.offered,
        sum(copies for _, _, copies in events),
    )
    workload.demand.add_timed(events)  # what the fixes' numbers come from: the calls, not their retries
    return workload


class _Replay:
    """Builds the replay's key spaces and requests, and remembers keys' labels and offered units."""

    def __init__(self, setting: Setting, scale: float) -> None:
        self.setting, self.scale, self.rng = setting, scale, random.Random(setting.seed)
        self.spaces: dict[str, KeySpace] = {}
        self.labels: dict[tuple[str, int], str] = {}
        self.offered: dict[tuple[str, int], float] = defaultdict(float)

    def copies(self) -> int:
        """`scale` copies of a call: its whole part, plus one with the chance of its fraction."""
        whole = math.floor(self.scale)
        return whole + (1 if self.rng.random() < self.scale - whole else 0)

    def requests(self, group: list[Access], copies: int) -> list[tuple[Any, ...]]:
        """An item's requests: a read alone; a table write carrying its index writes."""
        pieces = [(access, self.piece(access, copies)) for access in group]
        index_writes = tuple(piece[:4] for access, piece in pieces if access.write and access.index)
        others = [piece for access, piece in pieces if not (access.write and access.index)]
        table_write = next((n for n, piece in enumerate(others) if piece[3]), None)
        if table_write is None:  # index writes the table's record did not show: send them alone
            return others + [(*write, 0.0, 0, ()) for write in index_writes]
        others[table_write] = (*others[table_write][:6], index_writes)
        return others

    def piece(self, access: Access, copies: int) -> tuple[Any, ...]:
        name = space_name(access)
        space = self.spaces.get(name) or self.spaces.setdefault(
            name, self.setting.space(name, lsi=access.lsi, index=bool(access.index))
        )
        key = (
            json.dumps(access.pk, sort_keys=True)
            if access.pk is not None
            else f"?{access.call}.{access.item}"
        )
        hashed = key_hash(key, self.setting.seed)
        self.labels[name, hashed] = label(access.pk)
        cost = 1.0 if access.write else self.setting.limits.read_cost  # what it costs its partition
        self.offered[name, hashed] += access.units * copies * cost
        write, read = (access.units, 0.0) if access.write else (0.0, access.units)
        return (
            space,
            hashed,
            sort_bytes(_sort_key(access.sk)),
            write,
            read,
            access.size if access.write else 0,
            (),
        )
