"""The traffic view's data: what `tatami local insights` prints, as numbers a page draws.

This module is the console's one call site of the capacity model (`tatami.capacity`): the recorded
calls of the running local cloud, ranked into hot keys, and replayed `scale` times over for the verdict.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from tatami.capacity.adapters.insights import Insights, analyse, flagged_keys
from tatami.capacity.adapters.traffic import KeyStats, read_records, schemas_from
from tatami.capacity.model.space import ACC_R, ACC_W, THR_R, THR_W
from tatami.capacity.workloads.builders import Setting
from tatami.console.errors import BadParameter

SPACES = 8  # tables and indexes drawn, busiest first
TOP_KEYS = 5
MAX_SCALE = 1000.0


def traffic(folder: Path, dynamodb: Any, scale: float) -> dict[str, Any]:
    """Units per second per table and index, the hottest keys, and the replay's verdict at `scale`."""
    if not 0 < scale <= MAX_SCALE:
        raise BadParameter("scale", f"must be above 0 and at most {MAX_SCALE:g}, got {scale:g}")
    records, unreadable = read_records(folder) if folder.is_dir() else ([], 0)
    if not records:
        return {"calls": 0, "unreadable": unreadable, "spaces": [], "replay": None}
    names = {entry.get("TableName", "") for record in records for entry in _consumed(record)}
    found = analyse(records, schemas_from(dynamodb, names - {""}), Setting(), scale)
    return {
        "calls": found.calls,
        "unreadable": unreadable,
        "seconds": found.seconds,
        "sources": found.sources,
        "spaces": _spaces(found),
        "replay": _replay(found),
    }


def _consumed(record: dict[str, Any]) -> list[dict[str, Any]]:
    consumed = record.get("cc") or []
    return consumed if isinstance(consumed, list) else [consumed]


def _spaces(found: Insights) -> list[dict[str, Any]]:
    """Per table or index: units per recorded second (all keys) and its hottest keys with their flags."""
    flags = flagged_keys(found)
    ranked = sorted(found.stats.items(), key=lambda item: -sum(entry.units for entry in item[1]))
    spaces = []
    for space, entries in ranked[:SPACES]:
        per_second: Counter[int] = Counter()
        for entry in entries:
            per_second.update(entry.per_second)
        total = sum(entry.units for entry in entries) or 1.0
        keys = [_key(entry, total, flags.get((space, entry.key), "")) for entry in entries[:TOP_KEYS]]
        spaces.append(
            {
                "name": space,
                "units": total,
                "keys_total": len(entries),
                "per_second": sorted(per_second.items()),
                "keys": keys,
            }
        )
    return spaces


def _key(entry: KeyStats, total: float, flag: str) -> dict[str, Any]:
    return {
        "key": entry.key,
        "write_units": entry.write_units,
        "read_units": entry.read_units,
        "calls": entry.calls,
        "peak": entry.peak,
        "share": entry.units / total,
        "flag": flag,
    }


def _replay(found: Insights) -> dict[str, Any]:
    """The replay at the chosen scale: its verdict, the partitions that throttled most, and accepted and
    throttled units per second of the busiest tables and indexes."""
    report = found.report
    busiest = sorted(report.series, key=lambda s: -sum(row[THR_W] + row[THR_R] for row in report.series[s]))
    return {
        "scale": found.scale,
        "capacity": report.capacity,
        "seconds": report.seconds,
        "verdict": found.verdict.text,
        "partitions": [
            {
                "name": line.name,
                "keys": line.keys,
                "top_key": line.top_key,
                "top_share": line.top_share,
                "throttled": line.throttled,
                "throttled_seconds": line.throttled_seconds,
                "peak": line.peak,
            }
            for line in sorted(report.partitions, key=lambda line: -line.throttled)[:12]
        ],
        "series": [
            {
                "name": space,
                "accepted": [row[ACC_W] + row[ACC_R] for row in report.series[space]],
                "throttled": [row[THR_W] + row[THR_R] for row in report.series[space]],
            }
            for space in busiest[:4]
        ],
    }
