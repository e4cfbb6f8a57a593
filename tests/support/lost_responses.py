"""Every write route family of the app, as requests on resources of their own, each with the read that
finds what it left: for the lost-response suite (tests/integration/faults/test_lost_responses.py).

A family's write is its `route_families` request with its ids made unique (`fam-` becomes the
run's prefix), so N requests of one family never touch one another's items, and its read says
whether each request's effect is stored. The families whose effect adds to what is stored (counters,
a customer's order count) are checked for double counts by the suite itself.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import requests

from tests.support.route_families import FAMILIES, Call

READ_BACK: dict[str, Callable[[Call], Call]] = {
    "places": lambda put: Call("GET", put.path),
    "counters": lambda put: Call("GET", put.path),
    "orders": lambda post: Call("GET", f"/orders/{post.body['OrderId']}"),
    "businesses": lambda put: Call("GET", put.path),
    "lockers": lambda put: Call("GET", put.path),
    "carts": lambda put: Call("GET", f"{put.path}/item_name"),
    "device logs": lambda post: Call("GET", post.path),
    "documents": lambda put: Call("GET", put.path),
    "campaigns": lambda put: Call("GET", put.path),
    "employees": lambda put: Call("GET", put.path),
    "invoices": lambda put: Call("GET", put.path),
}
REMOVABLE = ("lockers", "carts", "documents", "employees", "invoices")  # families with a DELETE


@dataclass(frozen=True)
class Write:
    """One write of a family on resources of its own, and the read of what it stored."""

    family: str
    call: Call
    read: Call

    def stored(self, api: str) -> bool:
        """Whether the write's effect is there (the read finds its resource; a log list, its log)."""
        response = self.read.send(api, timeout=60)
        assert response.status_code in (200, 404), (self.read, response.status_code, response.text)
        if self.family == "device logs":
            return response.status_code == 200 and bool(response.json()["items"])
        return response.status_code == 200

    def removal(self) -> Call:
        """The family's DELETE of the resource the write made."""
        return Call("DELETE", self.call.path)


def unique(call: Call, prefix: str, number: int) -> Call:
    """`call` with every `fam-` id made `<prefix>-<number>-` (an employee's numeric id offset too)."""
    text = json.dumps({"path": call.path, "body": call.body}).replace("fam-", f"{prefix}-{number}-")
    parts: dict[str, Any] = json.loads(text)
    if call.path.startswith("/employees/"):
        parts["path"] = f"/employees/{zlib.crc32(prefix.encode()) % 10_000 * 100 + number + 1}"
    return replace(call, path=parts["path"], body=parts["body"])


def writes(prefix: str, count: int) -> list[Write]:
    """`count` writes of every family in READ_BACK, ids unique to `prefix`."""
    made = []
    for family, read_back in READ_BACK.items():
        write = next(call for call in FAMILIES[family] if call.method != "GET")
        for number in range(count):
            call = unique(write, prefix, number)
            made.append(Write(family, call, read_back(call)))
    return made


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict[str, Any]
    retry_after: str | None

    @classmethod
    def of(cls, response: requests.Response) -> Answer:
        try:
            body = response.json()
        except ValueError:
            body = {"text": response.text}
        return cls(
            response.status_code, body if isinstance(body, dict) else {}, response.headers.get("Retry-After")
        )

    @property
    def may_have_applied(self) -> bool:
        """2xx: applied; a 503 says; anything else: not applied."""
        return self.status < 300 or (self.status == 503 and bool(self.body.get("may_have_applied")))

    def truthful_503(self) -> bool:
        """A 503 of a write says whether it may have applied, how to send it again, and when."""
        return (
            isinstance(self.body.get("may_have_applied"), bool)
            and isinstance(self.body.get("retry"), str)
            and (self.retry_after or "").isdigit()
        )
