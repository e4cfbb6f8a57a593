"""Time to live, made reliable locally.

DynamoDB Local expires items itself only in tables without global secondary indexes (3.3.1: in a
table with a GSI some expired items stay forever). The sweeper deletes every expired item of every
TTL table a few seconds after it expires, with a condition that it is still expired, and remembers
what it deleted so the stream poller delivers those REMOVEs as AWS delivers TTL deletions: with the
DynamoDB service as `userIdentity`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

REMEMBER_SECONDS = 600.0  # longer than any poller lags behind its stream


@dataclass(frozen=True)
class TtlTable:
    name: str
    attribute: str
    key_attributes: tuple[str, ...]


@dataclass
class ExpiredItems:
    """Keys the sweeper deleted, with the expiry they had; shared with the stream pollers."""

    _deleted: dict[tuple[str, str], tuple[str, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def remember(self, table: str, key: dict[str, Any], expiry: str) -> None:
        with self._lock:
            self._deleted[(table, _key_text(key))] = (expiry, time.monotonic())

    def was_expired(
        self, table: str, key: dict[str, Any], old_image: dict[str, Any] | None, attribute: str
    ) -> bool:
        """True when this REMOVE is the sweeper's deletion of this very item version."""
        with self._lock:
            self._forget_old()
            entry = self._deleted.get((table, _key_text(key)))
        expiry = ((old_image or {}).get(attribute) or {}).get("N")
        return entry is not None and expiry is not None and entry[0] == expiry

    def _forget_old(self) -> None:
        horizon = time.monotonic() - REMEMBER_SECONDS
        for key in [k for k, (_expiry, at) in self._deleted.items() if at < horizon]:
            del self._deleted[key]


def _key_text(key: dict[str, Any]) -> str:
    return json.dumps(key, sort_keys=True, default=str)


class TtlSweeper:
    """Deletes expired items of the given tables every `interval` seconds, in a background thread."""

    def __init__(
        self,
        client: Any,
        tables: list[TtlTable],
        expired: ExpiredItems,
        interval: float = 2.0,
        log: Callable[[str], None] = lambda _line: None,
    ) -> None:
        self.client = client
        self.tables = tables
        self.expired = expired
        self.interval = interval
        self.log = log
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ttl-sweeper", daemon=True)

    def start(self) -> None:
        if self.tables:
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    def sweep(self) -> int:
        """One pass over every table; returns how many items it deleted."""
        return sum(self._sweep_table(table) for table in self.tables)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.sweep()
            except Exception as exc:  # noqa: BLE001 - keep sweeping; the log says what failed
                self.log(f"TTL sweep failed: {type(exc).__name__}: {exc}")

    def _sweep_table(self, table: TtlTable) -> int:
        now = str(int(time.time()))
        names = {"#ttl": table.attribute, **{f"#k{i}": k for i, k in enumerate(table.key_attributes)}}
        paginator = self.client.get_paginator("scan")
        deleted = 0
        pages = paginator.paginate(
            TableName=table.name,
            FilterExpression="#ttl < :now",
            ExpressionAttributeValues={":now": {"N": now}},
            ProjectionExpression=", ".join(names),
            ExpressionAttributeNames=names,
        )
        for item in (item for page in pages for item in page["Items"]):
            if "N" in item.get(table.attribute, {}) and self._delete(table, item, now):
                deleted += 1
        return deleted

    def _delete(self, table: TtlTable, item: dict[str, Any], now: str) -> bool:
        key = {name: item[name] for name in table.key_attributes}
        expiry = item[table.attribute]["N"]
        self.expired.remember(table.name, key, expiry)  # before the delete: its record may be read at once
        try:
            self.client.delete_item(
                TableName=table.name,
                Key=key,
                ConditionExpression="#ttl = :expiry AND #ttl < :now",
                ExpressionAttributeNames={"#ttl": table.attribute},
                ExpressionAttributeValues={":expiry": {"N": expiry}, ":now": {"N": now}},
            )
        except self.client.exceptions.ConditionalCheckFailedException:
            return False  # rewritten meanwhile, or expired by DynamoDB Local itself
        return True


@dataclass(frozen=True)
class TtlRemovals:
    """What a stream poller needs to recognise the sweeper's deletions in its table's stream."""

    expired: ExpiredItems
    table: str
    attribute: str

    def is_ttl_removal(self, record: dict[str, Any]) -> bool:
        stream = record["dynamodb"]
        return record.get("eventName") == "REMOVE" and self.expired.was_expired(
            self.table, stream.get("Keys", {}), stream.get("OldImage"), self.attribute
        )
