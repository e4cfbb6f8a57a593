"""Keeping every index in step with the table, a stream batch at a time.

For each item of the batch only its newest image counts (earlier records of the same key are
superseded). An item holding every declared attribute gets its index keys computed and written back
only if they differ from what it holds, on condition that its attributes still hold the values this
image saw (otherwise a newer write won and its own stream record brings the right keys). The MODIFY
that the write-back causes finds the keys already right: no write, so no loop. An item that lost an
attribute, or whose values cannot be encoded, leaves every index. The writes of a batch run
concurrently (bounded), which is what lets one maintainer keep up with batch writes.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from zindex.dynamodb import IndexRepository
from zindex.dynamojson import to_item
from zindex.errors import StaleImageError, UnencodableError
from zindex.keys import index_keys, indexable, key_text

__all__ = ["BatchResult", "IndexOutcome", "index_item", "maintain", "newest_images"]

PARALLEL_WRITES = 16


class IndexOutcome(enum.Enum):
    WRITTEN = "written"  # keys set or changed
    UNCHANGED = "unchanged"  # already right: the no-op that ends the write-back loop
    REMOVED = "removed"  # left the indexes (an attribute removed, or unencodable values)
    ABSENT = "absent"  # not indexed and nothing to remove
    STALE = "stale"  # a newer write won; its own record will place the item
    UNENCODABLE = "unencodable"  # values no index can order: left out, reported
    IGNORED = "ignored"  # deletions and the engine's own items
    SUPERSEDED = "superseded"  # a later record of the same key in the batch decides


@dataclass
class BatchResult:
    """What one batch did: outcomes, failed records (their sequence numbers), entries added (+) or
    removed (-), the unencodable items with the reason, and how many records were of the engine's
    own items (statistics, status)."""

    outcomes: Counter[str] = field(default_factory=Counter)
    failed: list[str] = field(default_factory=list)
    entries: int = 0
    unencodable: list[tuple[str, str]] = field(default_factory=list)
    oldest_record_s: float | None = None
    engine_records: int = 0


def _stored(repository: IndexRepository, image: Mapping[str, Any]) -> dict[str, Any]:
    return {name: image[name] for name in repository.table.written if image.get(name) is not None}


def index_item(repository: IndexRepository, image: Mapping[str, Any]) -> IndexOutcome:
    """Bring one item's index keys in line with its attributes (the maintainer's and backfill's step).

    Raises UnencodableError (after taking the item out of the indexes) and unexpected SDK errors.
    """
    table = repository.table
    if table.is_reserved(image):
        return IndexOutcome.IGNORED
    key = {name: image[name] for name in table.key}
    stored = _stored(repository, image)
    try:
        if not indexable(table, image):
            if not stored:
                return IndexOutcome.ABSENT
            repository.write_index_keys(key, None, image)
            return IndexOutcome.REMOVED
        try:
            target = index_keys(table, image)
        except UnencodableError:
            if stored:
                repository.write_index_keys(key, None, image)
            raise
        if stored == target:
            return IndexOutcome.UNCHANGED
        repository.write_index_keys(key, target, image)
        return IndexOutcome.WRITTEN
    except StaleImageError:
        return IndexOutcome.STALE


def newest_images(
    table_key: Sequence[str], records: Iterable[Mapping[str, Any]]
) -> dict[str, Mapping[str, Any]]:
    """The last record of each key (records arrive in stream order per key)."""
    newest: dict[str, Mapping[str, Any]] = {}
    for record in records:
        keys = to_item(record["dynamodb"]["Keys"], base64_binaries=True)
        newest["\x1f".join(str(keys[k]) for k in table_key)] = record
    return newest


def _apply(repository: IndexRepository, record: Mapping[str, Any]) -> tuple[IndexOutcome, int, str | None]:
    """One record's outcome, its change to the entry count, and the unencodable reason if any."""
    data = record["dynamodb"]
    old = to_item(data.get("OldImage") or {}, base64_binaries=True)
    was_indexed = bool(_stored(repository, old))
    if record.get("eventName") not in ("INSERT", "MODIFY"):
        return IndexOutcome.IGNORED, -1 if was_indexed and not repository.table.is_reserved(old) else 0, None
    image = {**to_item(data["Keys"], base64_binaries=True), **to_item(data.get("NewImage") or {}, True)}
    try:
        outcome = index_item(repository, image)
    except UnencodableError as exc:
        return IndexOutcome.UNENCODABLE, -1 if _stored(repository, image) else 0, str(exc)
    indexed_before = bool(_stored(repository, image))
    delta = {IndexOutcome.WRITTEN: 0 if indexed_before else 1, IndexOutcome.REMOVED: -1}.get(outcome, 0)
    return outcome, delta, None


def maintain(
    repository: IndexRepository, records: Sequence[Mapping[str, Any]], parallel: int = PARALLEL_WRITES
) -> BatchResult:
    """Apply a batch of stream records (as Lambda delivers them); failures are listed, not raised."""
    result = BatchResult()
    newest = newest_images(repository.table.key, records)
    chosen = {id(r) for r in newest.values()}
    result.outcomes[IndexOutcome.SUPERSEDED.value] = len(records) - len(chosen)
    times = [
        float(r["dynamodb"]["ApproximateCreationDateTime"])
        for r in records
        if r.get("dynamodb", {}).get("ApproximateCreationDateTime") is not None
    ]
    result.oldest_record_s = min(times) if times else None
    result.engine_records = sum(
        repository.table.is_reserved(to_item(r["dynamodb"]["Keys"], base64_binaries=True)) for r in records
    )

    def attempt(record: Mapping[str, Any]) -> tuple[Mapping[str, Any], Any]:
        try:
            return record, _apply(repository, record)
        except Exception as exc:  # noqa: BLE001 - reported as a failed record, retried by Lambda
            return record, exc

    with ThreadPoolExecutor(max_workers=max(1, min(parallel, len(newest)))) as pool:
        for record, found in pool.map(attempt, newest.values()):
            if isinstance(found, Exception):
                result.failed.append(record["dynamodb"]["SequenceNumber"])
                result.outcomes["failed"] += 1
                continue
            outcome, delta, reason = found
            result.outcomes[outcome.value] += 1
            result.entries += delta
            if reason is not None:
                keys = to_item(record["dynamodb"]["Keys"], base64_binaries=True)
                result.unencodable.append((key_text(repository.table, keys), reason))
    return result
