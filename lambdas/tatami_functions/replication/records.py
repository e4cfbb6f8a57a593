"""Stream records as replica writes: versions, the newest record per key, tombstones, and equality.

Order-safety rests on one number: a stream record's SequenceNumber, which grows with every change
of an item (DynamoDB streams an item's changes in order, and Lambda reads a parent shard before
its children). Zero-padded to 40 digits (the longest sequence number AWS documents) it compares as
text, so the replica can keep it as `_rep_seq` and every write can demand `_rep_seq < mine`.

- INSERT and MODIFY become a Put of the new image plus `_rep_seq`.
- REMOVE becomes a tombstone: the key, `_rep_seq`, `_rep_deleted` and `_rep_expires` (the replica's
  TTL attribute). A late, redelivered older Put then finds a newer version and is refused, so a
  deleted item never comes back; TTL removes the tombstone once no record older than it can still
  arrive (streams keep records 24 hours).

The replica equals the source when, item for item, its live items (no tombstones) without these
three attributes equal the source's items (`live`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from tatami_functions.common.stream_images import wire_image

VERSION, DELETED, EXPIRES = "_rep_seq", "_rep_deleted", "_rep_expires"
BOOKKEEPING = (VERSION, DELETED, EXPIRES)
SEQUENCE_DIGITS = 40
Record = dict[str, Any]
Item = dict[str, Any]


def version(record: Record) -> str:
    """The record's version: its sequence number, zero-padded so versions compare as text.

    >>> version({"dynamodb": {"SequenceNumber": "4000000000000012"}})
    '0000000000000000000000004000000000000012'
    """
    return str(record["dynamodb"]["SequenceNumber"]).zfill(SEQUENCE_DIGITS)


def key_of(record: Record) -> str:
    """The changed item's key, canonical (the same key always gives the same text)."""
    return json.dumps(record["dynamodb"]["Keys"], sort_keys=True)


def newest_per_key(records: Iterable[Record]) -> dict[str, Record]:
    """For each key, the record with the highest version: the only one worth writing.

    >>> newest = newest_per_key([
    ...     {"dynamodb": {"Keys": {"PK": {"S": "a"}}, "SequenceNumber": "9"}},
    ...     {"dynamodb": {"Keys": {"PK": {"S": "a"}}, "SequenceNumber": "10"}}])
    >>> [r["dynamodb"]["SequenceNumber"] for r in newest.values()]
    ['10']
    """
    newest: dict[str, Record] = {}
    for record in records:
        key = key_of(record)
        if key not in newest or version(newest[key]) < version(record):
            newest[key] = record
    return newest


def replica_item(record: Record, now: float, tombstone_seconds: int) -> Item:
    """What the replica stores for a record: the new image, or a tombstone for a REMOVE.

    >>> replica_item({"eventName": "REMOVE", "dynamodb": {"Keys": {"PK": {"S": "a"}},
    ...               "SequenceNumber": "7"}}, now=100, tombstone_seconds=50)[EXPIRES]
    {'N': '150'}
    """
    stream = record["dynamodb"]
    stamp = {VERSION: {"S": version(record)}}
    if record["eventName"] == "REMOVE":
        expires = {"N": str(int(now) + tombstone_seconds)}
        return {**wire_image(stream["Keys"]), **stamp, DELETED: {"BOOL": True}, EXPIRES: expires}
    if "NewImage" not in stream:
        raise ValueError(f"{record['eventName']} record without NewImage: the stream must show new images")
    return {**wire_image(stream["NewImage"]), **stamp}


def live(item: Item) -> Item | None:
    """A replica item as the source has it: None for a tombstone, else without the bookkeeping.

    >>> live({"PK": {"S": "a"}, "_rep_seq": {"S": "01"}})
    {'PK': {'S': 'a'}}
    """
    if DELETED in item:
        return None
    return {name: value for name, value in item.items() if name not in BOOKKEEPING}
