"""Sample data of the invoices service: the 11 invoices of seed 004's adjacency-list lab
(data/labs_invoices.json; where it comes from: data/labs.ATTRIBUTION.md), put through the API."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tatami.samples import DATA
from tatami.samples.writing import send_all

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress

EXAMPLES = ("/invoices/1249", "/customers/1249/invoices", "/bills/3392")


def invoices() -> list[dict[str, Any]]:
    """The invoices of the adjacency-list lab, each with its `id` and the body of its PUT."""
    return list(json.loads((DATA / "labs_invoices.json").read_text(encoding="utf-8"))["invoices"])


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    """PUT every invoice (a PUT of the same invoice again changes nothing); a one-line summary."""
    sent = send_all(cloud.api_url, [("PUT", f"/invoices/{i.pop('id')}", i) for i in invoices()], progress)
    return f"{sent} invoices"
