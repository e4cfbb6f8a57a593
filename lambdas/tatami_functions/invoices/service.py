"""The invoices service: an invoice read, written or removed with everything it owns, and the
invoices pointing at a customer or a bill, each one Query (`adjacency.py` draws the items)."""

from __future__ import annotations

from typing import Any, Literal

from tatami_functions.common.attribute_values import low_level
from tatami_functions.common.paging import Item, ListPage, ReadStats
from tatami_functions.invoices.adjacency import (
    BILL,
    CUSTOMER,
    invoice_items,
    invoice_view,
    key,
    split_related,
)
from tatami_functions.invoices.exceptions import InvoiceNotFoundError
from tatami_functions.invoices.repository import repository
from tatami_functions.invoices.schemas import InvoiceIn


def invoice(invoice_id: str) -> tuple[dict[str, Any], ReadStats]:
    """The invoice with its customer and bills, and what reading it cost; InvoiceNotFoundError if none."""
    items, stats = repository().partition(invoice_id)
    view = invoice_view(items)
    if view is None:
        raise InvoiceNotFoundError(f"no invoice {invoice_id}")
    return view, stats


Related = Literal["customer", "bill"]
PREFIXES: dict[Related, str] = {"customer": CUSTOMER, "bill": BILL}


def related(
    kind: Related, entity_id: str, cursor: Item | None, limit: int
) -> tuple[dict[str, Any] | None, ListPage]:
    """A customer or bill (on the first page) and a page of the invoices pointing at it;
    InvoiceNotFoundError when nothing is known of it."""
    entity_key = key(PREFIXES[kind], entity_id)
    items, next_key, stats = repository().pointing_at(entity_key, cursor, limit)
    entity, invoices = split_related(items, entity_key)
    if cursor is None and entity is None and not invoices:
        raise InvoiceNotFoundError(f"nothing is known of {entity_key}")
    return entity, ListPage(invoices, next_key, stats)


def put(invoice_id: str, body: InvoiceIn) -> tuple[bool, dict[str, Any]]:
    """Create or replace the invoice and everything it owns; (was it new?, the invoice)."""
    table = repository()
    owned, version = table.owned(invoice_id)
    items = [low_level(item) for item in invoice_items(invoice_id, body, version + 1)]
    table.replace(invoice_id, items, version, owned)
    view = invoice_view([item for item in items if item["PK"] == items[0]["PK"]])
    assert view is not None  # the invoice item is among them
    return version == 0, view


def delete(invoice_id: str) -> None:
    """Remove the invoice and its edges (its customer and bills stay: others may point at them)."""
    table = repository()
    owned, version = table.owned(invoice_id)
    if version == 0:
        raise InvoiceNotFoundError(f"no invoice {invoice_id}")
    table.remove(invoice_id, version, owned)
