"""The adjacency list's key design: every entity and every edge is one item of one table.

    PK        SK        type             holds
    I#1420    I#1420    invoice          date, due_date, status, balance, customer_id, version
    I#1420    C#1420    invoice_customer the customer as billed + the invoice's summary
    I#1420    B#2823    invoice_bill     the bill's due date, this invoice's amount and balance on it
    C#1420    C#1420    customer         name, state (the latest an invoice gave)
    B#2823    B#2823    bill             due_date

The table answers "an invoice with its customer and bills" (one Query of PK = I#...). The inverted
index GSI_1 (partition SK, sort PK) answers the other direction with one Query too: SK = C#1249
gives the customer item and every invoice edge pointing at it; SK = B#3392 the bill and its invoices.
Edges copy what the reverse reader needs (an invoice's summary on its customer edge), written in the
same transaction as the invoice, so no read ever needs a second round trip.
"""

from __future__ import annotations

from typing import Any

from tatami_functions.common.attribute_values import plain
from tatami_functions.common.paging import Item
from tatami_functions.invoices.schemas import InvoiceIn

INVOICE, CUSTOMER, BILL = "I#", "C#", "B#"
HIDDEN = ("PK", "SK", "type", "version")


def key(prefix: str, entity_id: str) -> str:
    """An entity's key: its kind's prefix and its id.

    >>> key(INVOICE, "1420")
    'I#1420'
    """
    return f"{prefix}{entity_id}"


def invoice_items(invoice_id: str, body: InvoiceIn, version: int) -> list[dict[str, Any]]:
    """Every item a PUT writes: the invoice, its customer edge and customer, its bill edges and bills."""
    values = body.as_json()
    pk, customer = key(INVOICE, invoice_id), values["customer"]
    summary = {k: values[k] for k in ("date", "due_date", "status", "balance")}
    items: list[dict[str, Any]] = [
        {"PK": pk, "SK": pk, "type": "invoice", "invoice_id": invoice_id, **summary}
        | {"customer_id": customer["id"], "version": version},
        {"PK": pk, "SK": key(CUSTOMER, customer["id"]), "type": "invoice_customer"}
        | {"invoice_id": invoice_id, "customer_id": customer["id"], **summary}
        | {"customer_name": customer["name"], "customer_state": customer["state"]},
        _entity(CUSTOMER, customer["id"], "customer", name=customer["name"], state=customer["state"]),
    ]
    for line in values["bills"]:
        bill_key = key(BILL, line["bill_id"])
        items.append(
            {"PK": pk, "SK": bill_key, "type": "invoice_bill", "invoice_id": invoice_id}
            | {"bill_id": line["bill_id"], "amount": line["amount"], "balance": line["balance"]}
            | {"bill_due_date": line["due_date"]}
        )
        items.append(_entity(BILL, line["bill_id"], "bill", due_date=line["due_date"]))
    return items


def _entity(prefix: str, entity_id: str, kind: str, **values: Any) -> dict[str, Any]:
    entity_key = key(prefix, entity_id)
    return {"PK": entity_key, "SK": entity_key, "type": kind, f"{kind}_id": entity_id, **values}


def invoice_view(items: list[Item]) -> dict[str, Any] | None:
    """An invoice from the items of its partition (None without the invoice item itself)."""
    invoice = next((plain(i, HIDDEN) for i in items if i["type"]["S"] == "invoice"), None)
    if invoice is None:
        return None
    edge = next((plain(i) for i in items if i["type"]["S"] == "invoice_customer"), {})
    invoice["customer"] = {
        "customer_id": edge.get("customer_id", invoice["customer_id"]),
        "name": edge.get("customer_name"),
        "state": edge.get("customer_state"),
    }
    del invoice["customer_id"]
    invoice["bills"] = [_bill_line(plain(i)) for i in items if i["type"]["S"] == "invoice_bill"]
    return invoice


def _bill_line(edge: dict[str, Any]) -> dict[str, Any]:
    return {
        "bill_id": edge["bill_id"],
        "due_date": edge["bill_due_date"],
        "amount": edge["amount"],
        "balance": edge["balance"],
    }


def split_related(items: list[Item], entity_key: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """A GSI_1 partition: the entity's own item (if on this page) and the invoice edges pointing at it.

    >>> split_related([{"PK": {"S": "C#7"}, "SK": {"S": "C#7"}, "type": {"S": "customer"},
    ...                 "name": {"S": "Max"}}], "C#7")
    ({'name': 'Max'}, [])
    """
    entity = next((plain(i, HIDDEN) for i in items if i["PK"]["S"] == entity_key), None)
    edges = [plain(i, HIDDEN) for i in items if i["PK"]["S"] != entity_key]
    return entity, edges
