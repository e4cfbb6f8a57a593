"""Documents: the request bodies, the stored metadata, and where a body lives.

The seed's table keyed documents by `user_id` with the body inside, so listing 50 documents of 256 KB
read 50 x 256 KB / 4 KB x 1/2 = 1,600 RCU. Here `report_id` is the table's key, the list comes from
a GSI on `user_id` + `status_with_created_on` that projects only `summary` (INCLUDE), and the body
never enters the index: listing 50 costs about 1 RCU.

Bodies are gzip-compressed; up to 8 KiB compressed they stay in the item (`document_gz`), beyond that
they go to S3. 8 KiB is where the two cost the same to write: 8 write units ($0.625 per million each,
on demand) equal one S3 PUT ($5 per million); reading 8 KiB back is 2 read units, cheaper than a GET,
and saves a second round trip. Bodies are capped at 1 MiB so a response, JSON-escaped, stays within
Lambda's 6 MB payload limit.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

MAX_DOCUMENT_BYTES = 1024 * 1024
INLINE_MAX_BYTES = 8 * 1024
READ_UNIT_BYTES = 4 * 1024

ReportId = Annotated[str, StringConstraints(pattern=r"^[\w.:-]{1,128}$")]
Summary = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


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


class DocumentIn(BaseModel):
    """Body of `PUT /users/{id}/documents/{report_id}`; `created_on` defaults to today (UTC)."""

    model_config = ConfigDict(extra="forbid")

    status: DocumentStatus
    summary: Summary
    document: Annotated[str, Field(min_length=1)]
    created_on: date | None = None

    @field_validator("document")
    @classmethod
    def _at_most_1_mib(cls, value: str) -> str:
        size = len(value.encode())
        if size > MAX_DOCUMENT_BYTES:
            raise ValueError(f"is {size} bytes of UTF-8; the limit is {MAX_DOCUMENT_BYTES} (1 MiB)")
        return value


def _without_null(schema: dict[str, Any]) -> None:
    """An optional field's schema without its `null` branch."""
    schema.update(next(branch for branch in schema.pop("anyOf") if branch.get("type") != "null"))


class DocumentPatch(BaseModel):
    """Body of `PATCH /users/{id}/documents/{report_id}`: a new status and/or summary."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"minProperties": 1})

    # Absent, not null: the document says so (a null would change nothing and is refused).
    status: DocumentStatus | None = Field(default=None, json_schema_extra=_without_null)
    summary: Summary | None = Field(default=None, json_schema_extra=_without_null)

    @model_validator(mode="after")
    def _something_to_change(self) -> DocumentPatch:
        if self.status is None and self.summary is None:
            raise ValueError("give status and/or summary")
        return self


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
