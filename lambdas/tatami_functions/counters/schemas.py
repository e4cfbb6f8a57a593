"""The counters routes' bodies and parameters: a counter's name, the Idempotency-Key, a PUT's sizing
and an increment."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Header, Path
from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator

from tatami_functions.common.json_numbers import whole_numbers
from tatami_functions.counters.sharding import MAX_INCREMENT, MAX_SHARDS, NAME_PATTERN, PARTITION_WCU

__all__ = ["CounterName", "CounterSpec", "IdempotencyKey", "IncrementBody"]

CounterName = Annotated[
    str, Path(pattern=NAME_PATTERN, description="1-64 of A-Z a-z 0-9 _ . -, starting with a letter or digit")
]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=255,
        pattern=r"^[\x21-\x7e]+$",
        description="A client-chosen key (e.g. a UUID): a retried request with the same key counts once",
    ),
]


class CounterSpec(BaseModel):
    """How much write traffic the counter must absorb; omitted fields take the deployment's defaults."""

    model_config = ConfigDict(extra="forbid")
    # At most what MAX_SHARDS shards absorb with no safety margin; a margin may still ask for more
    # shards than that (a 400 naming target_wcu): a bound on a product is more than a schema can say.
    target_wcu: StrictInt | None = Field(default=None, ge=1, le=MAX_SHARDS * PARTITION_WCU)
    safety_factor: float | None = Field(default=None, ge=1, le=4, description="the seed suggests 1.5-2")
    _whole = whole_numbers("target_wcu")


class IncrementBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    by: StrictInt = Field(
        ge=-MAX_INCREMENT,
        le=MAX_INCREMENT,
        description="non-zero; negative decrements",
        json_schema_extra={"not": {"const": 0}},  # what `_not_zero` refuses, in the document too
    )
    _whole = whole_numbers("by")

    @field_validator("by")
    @classmethod
    def _not_zero(cls, value: int) -> int:
        if value == 0:
            raise ValueError("must not be 0 (a zero increment would still cost a write)")
        return value
