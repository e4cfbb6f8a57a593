"""Documents: their stored metadata, their list entries, and where a body lives.

The seed's table keyed documents by `user_id` with the body inside, so listing 50 documents of 256 KB
read 50 x 256 KB / 4 KB x 1/2 = 1,600 RCU. Here `report_id` is the table's key, the list comes from
a GSI on `user_id` + `status_with_created_on` that projects only `summary` (INCLUDE), and the body
never enters the index: listing 50 costs about 1 RCU.

Bodies are gzip-compressed; up to 8 KiB compressed they stay in the item (`document_gz`), beyond that
they go to S3. 8 KiB is where the two cost the same to write: 8 write units ($0.625 per million each,
on demand) equal one S3 PUT ($5 per million); reading 8 KiB back is 2 read units, cheaper than a GET,
and saves a second round trip. Bodies are capped at 1 MiB so a response, JSON-escaped, stays within
Lambda's 6 MB payload limit. Every upload to S3 gets a new object key (`documents/<report_id>/<random>`),
so a concurrent writer can never overwrite the object a live item points to; the service deletes the
old object after the item has moved on.
"""

from __future__ import annotations

import enum
import gzip
import math
import uuid
from dataclasses import dataclass
from datetime import date
from typing import Any

MAX_DOCUMENT_BYTES = 1024 * 1024
INLINE_MAX_BYTES = 8 * 1024
READ_UNIT_BYTES = 4 * 1024
BODY_PREFIX = "documents/"  # the bucket's key prefix of bodies (the function is granted no other)


class DocumentStatus(enum.StrEnum):
    """Processing states of an uploaded document (the seed's `status`)."""

    PENDING = "PENDING"
    PROCESSING = "PROCESSING"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"


def status_with_created_on(status: DocumentStatus | str, created_on: date) -> str:
    """The GSI's composite sort key.

    >>> status_with_created_on(DocumentStatus.COMPLETED, date(2021, 7, 13))
    'COMPLETED#2021-07-13'
    """
    return f"{DocumentStatus(status).value}#{created_on.isoformat()}"


def query_read_units(total_bytes: int, consistent: bool = False) -> float:
    """What a Query reading `total_bytes` of items costs: 4 KB per unit, half for eventual consistency.

    >>> query_read_units(50 * 256 * 1024)  # the seed's 50 documents of 256 KB
    1600.0
    """
    units = math.ceil(total_bytes / READ_UNIT_BYTES)
    return float(units if consistent else units / 2)


@dataclass(frozen=True, slots=True)
class Document:
    """A document's metadata; `storage` says where its body is ("inline" or "s3")."""

    report_id: str
    user_id: str
    status: DocumentStatus
    created_on: str
    summary: str
    size: int
    storage: str

    @classmethod
    def of(cls, values: dict[str, Any]) -> Document:
        """The metadata of a stored item (plain values)."""
        status, created_on = values["status_with_created_on"].split("#", 1)
        return cls(
            report_id=values["report_id"],
            user_id=values["user_id"],
            status=DocumentStatus(status),
            created_on=created_on,
            summary=values["summary"],
            size=values["size"],
            storage="inline" if "document_gz" in values else "s3",
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "report_id": self.report_id,
            "user_id": self.user_id,
            "status": self.status.value,
            "created_on": self.created_on,
            "summary": self.summary,
            "size": self.size,
            "storage": self.storage,
        }


def listed(item: dict[str, Any]) -> dict[str, Any]:
    """A list entry from a GSI item (report_id, summary and the composite key are all it holds).

    >>> listed({"report_id": "r1", "summary": "s", "status_with_created_on": "PENDING#2021-07-13"})
    {'report_id': 'r1', 'status': 'PENDING', 'created_on': '2021-07-13', 'summary': 's'}
    """
    status, created_on = item["status_with_created_on"].split("#", 1)
    return {
        "report_id": item["report_id"],
        "status": status,
        "created_on": created_on,
        "summary": item["summary"],
    }


@dataclass(frozen=True, slots=True)
class Packed:
    """A body ready to store: compressed bytes to keep inline, or None when it belongs in S3."""

    text: str
    inline: bytes | None


def pack(text: str, inline_max: int = INLINE_MAX_BYTES) -> Packed:
    """Compress a body and decide where it goes (`mtime=0`: the same text packs to the same bytes).

    >>> pack("売上" * 1000).inline is not None  # repetitive text compresses far below 8 KiB
    True
    >>> import os
    >>> pack(os.urandom(20_000).hex()).inline is None  # random hex does not
    True
    """
    compressed = gzip.compress(text.encode(), mtime=0)
    return Packed(text, compressed if len(compressed) <= inline_max else None)


def unpack(compressed: bytes) -> str:
    """The text of an inline body.

    >>> unpack(gzip.compress("紀尾井町".encode()))
    '紀尾井町'
    """
    return gzip.decompress(compressed).decode()


def new_body_key(report_id: str) -> str:
    """A fresh object key for a body of `report_id` (never one a live item may point to)."""
    return f"{BODY_PREFIX}{report_id}/{uuid.uuid4().hex}"
