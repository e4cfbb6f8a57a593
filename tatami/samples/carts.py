"""Sample data of the carts service: seed 004's three carts (data/models_workshop.json; the seed's
cart JSON is kept verbatim, "3,300" becomes 3300 yen here), PUT through the API item by item."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from tatami.samples import workshop_data
from tatami.samples.writing import Request, send_all

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress

EXAMPLES = tuple(quote(path, safe="/?=&") for path in ("/users/MAX/cart", "/carts/by-item/靴下ID"))


def requests_for(carts: dict[str, Any]) -> Iterator[Request]:
    """Each cart's items, then its ship-to address."""
    for user_id, cart in carts.items():
        for item in cart["cart_items"]:
            item_id = item.pop("item_id")
            item |= {"quantity": int(item["quantity"]), "price": int(item["price"].replace(",", ""))}
            yield "PUT", f"/users/{user_id}/cart/items/{item_id}", item
        yield "PUT", f"/users/{user_id}/cart/ship-to", cart["ship_to"]


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    carts = workshop_data()["carts"]
    sent = send_all(cloud.api_url, list(requests_for(carts)), progress)
    return f"{len(carts)} carts ({sent} writes)"
