"""One representative request per route family of the app's API, valid and reaching DynamoDB (or S3).

A family is a group of routes one function serves under one path: a failure there fails the same way
for its siblings. The hostile-input suite garbles these requests; the dependency-failure suite sends
them while DynamoDB is throttled, unreachable or frozen. Each family's writes come first, so a read
of the same family finds what the write left (when nothing fails).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import requests

TOKYO = "東京都"


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    body: Any = None
    query: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)

    def send(self, api: str, timeout: float = 60, **changes: Any) -> requests.Response:
        """The request, with `changes` (body=, query=, headers=, data=) in place of its own parts."""
        parts: dict[str, Any] = {"params": self.query, "headers": self.headers}
        if self.body is not None:
            parts["json"] = self.body
        if "body" in changes:
            parts["json"] = changes.pop("body")
        if "query" in changes:
            parts["params"] = changes.pop("query")
        if "data" in changes:
            parts.pop("json", None)
        parts |= changes
        return requests.request(self.method, f"{api}{self.path}", timeout=timeout, **parts)


_LOG = {"level": "ERROR", "message": "family", "created_at": "2024-01-02T03:04:05Z", "operator": "SUE"}
_ITEM = {"item_name": "箸", "sku": "SKU", "quantity": 1, "price": 880, "category": "食器"}
_ITEM |= {"sub_category": "箸"}
_INVOICE = {"customer": {"id": "fam-c", "name": "F", "state": "WA"}, "date": "2024-05-01"}
_INVOICE |= {"due_date": "2024-05-21", "status": "Open", "balance": 12.5}
_INVOICE |= {"bills": [{"bill_id": "fam-b", "due_date": "2024-05-02", "amount": 2.5, "balance": 10}]}
_EMPLOYEE = {"name": "Fam Person", "title": "Tester", "department": "QA", "city": "Boston", "state": "MA"}
_EMPLOYEE |= {"hire_date": "2024-01-02", "is_manager": False}

FAMILIES: dict[str, tuple[Call, ...]] = {
    "places": (
        Call("PUT", "/places/fam-1", {"name": "Fam", "latitude": 35.0, "longitude": 135.0, "population": 10}),
        Call("GET", "/places/fam-1"),
    ),
    "place search": (Call("GET", "/places/search", query={"population_min": "5"}),),
    "ip lookup": (Call("GET", "/ip/1.2.3.4"), Call("POST", "/ip/lookups", {"addresses": ["1.2.3.4"]})),
    "counters": (Call("PUT", "/counters/fam-1", {"target_wcu": 100}), Call("GET", "/counters/fam-1")),
    "increments": (
        Call("POST", "/counters/fam-1/increments", {"by": 1}, headers={"Idempotency-Key": "fam-k"}),
    ),
    "orders": (
        Call("POST", "/orders", {"CustomerId": "fam-c", "Total": 12.5, "OrderId": "fam-o"}),
        Call("GET", "/orders", query={"status": "PENDING"}),
    ),
    "order search": (Call("GET", "/orders/search", query={"total_min": "10"}),),
    "customers": (Call("GET", "/customers/fam-c"), Call("GET", "/customers/fam-c/orders")),
    "businesses": (
        Call("PUT", "/businesses/fam-b", {"BusinessType": "CoffeeShop", "BusinessName": "Fam Beans"}),
        Call("GET", "/businesses", query={"type": "CoffeeShop"}),
    ),
    "forums": (Call("GET", "/forums"), Call("GET", "/forums/Amazon DynamoDB/threads")),
    "lockers": (
        Call("PUT", "/lockers/fam-l", {"state": TOKYO, "location": "千代田区", "name": "n", "address": "a"}),
        Call("GET", "/lockers", query={"state": TOKYO}),
    ),
    "carts": (Call("PUT", "/users/fam-u/cart/items/fam-i", _ITEM), Call("GET", "/users/fam-u/cart")),
    "cart lookups": (Call("GET", "/carts/by-item/fam-i"), Call("GET", f"/carts/by-prefecture/{TOKYO}")),
    "device logs": (Call("POST", "/devices/fam-d/logs", _LOG), Call("GET", "/devices/fam-d/logs")),
    "log views": (
        Call("GET", "/logs/recent"),
        Call("GET", "/escalations", query={"to": "SUE"}),
        Call("GET", "/operators/SUE/logs"),
    ),
    "documents": (
        Call("PUT", "/users/fam-u/documents/fam-r", {"status": "PENDING", "summary": "s", "document": "d"}),
        Call("GET", "/users/fam-u/documents"),
    ),
    "campaigns": (
        Call("PUT", "/campaigns/users/fam-u", {"prefecture": TOKYO, "birth_month": 5}),
        Call("GET", "/campaigns/candidates", query={"prefecture": TOKYO}),
    ),
    "employees": (Call("PUT", "/employees/7101", _EMPLOYEE), Call("GET", "/employees/managers")),
    "invoices": (Call("PUT", "/invoices/fam-i", _INVOICE), Call("GET", "/invoices/fam-i")),
    "bills": (Call("GET", "/bills/fam-b"), Call("GET", "/customers/fam-c/invoices")),
}
COUNTERS = ("counters", "increments")  # the exactly-once branch rewrites their writes and answers
