"""What `PUT /invoices/{id}` accepts: the invoice, the customer it bills and its bill lines.

Ids become parts of the adjacency list's keys (`I#1420`, `C#1249`, `B#3392`), so they are short
tokens without '#'. Amounts are decimals with at most 2 places (the workshop's dollars).
"""

from __future__ import annotations

import datetime as dt
import enum
from decimal import Decimal
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, WithJsonSchema, field_validator

ID_PATTERN = r"^[A-Za-z0-9_.-]{1,36}$"
MAX_BILLS = 20  # 2 writes per bill line + 3 + stale deletes stay under a transaction's 100 actions
Id = Annotated[str, Field(pattern=ID_PATTERN, description="Letters, digits, '_', '.', '-' (1..36)")]
# pydantic documents a Decimal as "a number or any string" and leaves decimal_places out.
Money = Annotated[
    Decimal,
    Field(ge=0, le=Decimal("1e12"), decimal_places=2, description="2 decimals"),
    WithJsonSchema({"type": "number", "minimum": 0, "maximum": 1e12, "multipleOf": 0.01}),
]
Text = Annotated[str, Field(min_length=1, max_length=200)]


class InvoiceStatus(enum.StrEnum):
    """The workshop's invoice statuses."""

    OPEN = "Open"
    CLOSED = "Closed"
    CANCELLED = "Cancelled"


class CustomerIn(BaseModel):
    """The billed customer; its item is updated to these values, the invoice keeps them as billed."""

    model_config = ConfigDict(extra="forbid")

    id: Id
    name: Text
    state: Text


class BillLine(BaseModel):
    """A bill the invoice is part of: the bill's due date, and this invoice's amount and balance on it."""

    model_config = ConfigDict(extra="forbid")

    bill_id: Id
    due_date: dt.date
    amount: Money
    balance: Money


class InvoiceIn(BaseModel):
    """Body of `PUT /invoices/{id}`: the whole invoice (a PUT replaces its bill lines and customer)."""

    model_config = ConfigDict(extra="forbid")

    customer: CustomerIn
    date: dt.date
    due_date: dt.date
    status: InvoiceStatus
    balance: Money
    bills: list[BillLine] = Field(default_factory=list, max_length=MAX_BILLS)

    @field_validator("due_date")
    @classmethod
    def _not_before_the_invoice(cls, value: dt.date, info: ValidationInfo) -> dt.date:
        issued = info.data.get("date")
        if issued is not None and value < issued:
            raise ValueError(f"{value} is before the invoice date {issued}")
        return value

    @field_validator("bills")
    @classmethod
    def _each_bill_once(cls, value: list[BillLine]) -> list[BillLine]:
        seen: set[str] = set()
        for line in value:
            if line.bill_id in seen:
                raise ValueError(f"bill {line.bill_id} is listed twice")
            seen.add(line.bill_id)
        return value

    def as_json(self) -> dict[str, Any]:
        """The body as JSON values (dates as ISO text, amounts as Decimal)."""
        return self.model_dump(mode="python") | {
            "date": self.date.isoformat(),
            "due_date": self.due_date.isoformat(),
            "status": self.status.value,
            "bills": [line.model_dump() | {"due_date": line.due_date.isoformat()} for line in self.bills],
        }
