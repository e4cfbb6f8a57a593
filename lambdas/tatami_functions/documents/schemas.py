"""Request bodies and parameter types of the documents routes."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from tatami_functions.common.text import stripped
from tatami_functions.documents.reports import MAX_DOCUMENT_BYTES, DocumentStatus

ReportId = Annotated[str, StringConstraints(pattern=r"^[\w.:-]{1,128}$")]
Summary = Annotated[str, stripped(200)]


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
