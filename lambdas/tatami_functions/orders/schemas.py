"""What the orders routes accept: statuses, the request bodies, and the questions the GSIs answer."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, field_validator

# Ids become parts of composite keys (`Status#OrderDate`, `Status#n`), so no '#' and no spaces.
ID_PATTERN = r"^[A-Za-z0-9_.-]{1,36}$"


class Status(enum.StrEnum):
    """An order's life: seed 002 names Pending, Ordered, In Transit and Delivered."""

    PENDING = "PENDING"
    ORDERED = "ORDERED"
    IN_TRANSIT = "IN_TRANSIT"
    DELIVERED = "DELIVERED"


class NewOrder(BaseModel):
    """`POST /orders`: the order's customer and total; `OrderId` only to make a retry safe (409)."""

    model_config = ConfigDict(extra="forbid")

    CustomerId: str = Field(pattern=ID_PATTERN, description="Who orders")
    # pydantic documents a Decimal as "a number or any string" and leaves decimal_places out.
    Total: Annotated[
        Decimal,
        Field(ge=0, le=Decimal("1e9"), decimal_places=2, description="Amount, 2 decimals"),
        WithJsonSchema({"type": "number", "minimum": 0, "maximum": 1e9, "multipleOf": 0.01}),
    ]
    OrderId: str | None = Field(default=None, pattern=ID_PATTERN, description="Chosen by the caller")

    @field_validator("Total")
    @classmethod
    def _cents(cls, total: Decimal) -> Decimal:
        """One spelling per amount ("1E+9" and "0E-100" are 1000000000.00 and 0.00), as it is stored."""
        return total.quantize(Decimal("0.01"))


class StatusChange(BaseModel):
    """`PATCH /orders/{id}`: the new status."""

    model_config = ConfigDict(extra="forbid")

    Status: Status


@dataclass(frozen=True, slots=True)
class CustomerOrdersQuery:
    """A customer's orders in OrderDate order, optionally of one status, within [low, high] (instants)."""

    customer_id: str
    status: Status | None = None
    low: str | None = None
    high: str | None = None
    descending: bool = False


@dataclass(frozen=True, slots=True)
class StatusOrdersQuery:
    """Every order in a status since an instant, across the N shards of the status index."""

    status: Status
    since: str | None = None
