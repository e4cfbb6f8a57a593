"""The seed's cart document, split into one item per value (vertical partitioning).

The seed's JSON (`cart_items` list and `ship_to` object) becomes rows under the user's partition,
each keyed by its path: `cart_items#price#靴下ID` holds the socks' price, `ship_to#state` the
prefecture. Reading or changing one value costs one small item, not the whole document; the
document is reassembled on read. `gsi_sk` is set on the two rows the overloaded GSI answers for:
`cart_items#added_at#<item>` ("who has item X in the cart", newest first) and `ship_to#state`
("who ships to prefecture Y").
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tatami_functions.carts.schemas import ItemField, ShipToIn
from tatami_functions.common.instants import instant

ITEMS, SHIP_TO = "cart_items", "ship_to"
INDEXED_ITEM_FIELD = ItemField.ADDED_AT
INDEXED_SHIP_TO_FIELD = "state"


def item_row(field: ItemField | str, item_id: str) -> str:
    """The sort key of one value of one cart item.

    >>> item_row(ItemField.PRICE, "靴下ID")
    'cart_items#price#靴下ID'
    """
    return f"{ITEMS}#{ItemField(field).value}#{item_id}"


def ship_to_row(field: str) -> str:
    """The sort key of one value of the shipping address.

    >>> ship_to_row("state")
    'ship_to#state'
    """
    return f"{SHIP_TO}#{field}"


def item_holders_row(item_id: str) -> str:
    """The GSI partition of "users with this item": the item's `added_at` rows.

    >>> item_holders_row("靴下ID")
    'cart_items#added_at#靴下ID'
    """
    return item_row(INDEXED_ITEM_FIELD, item_id)


SHIP_TO_STATE_ROW = ship_to_row(INDEXED_SHIP_TO_FIELD)  # the GSI partition of "users shipping to"


def stored_value(value: Any) -> Any:
    """Times in the seed's text form (UTC, milliseconds, Z: they sort as text); the rest as it is.

    >>> from datetime import timezone, timedelta
    >>> stored_value(datetime(2021, 8, 1, 9, 10, tzinfo=timezone(timedelta(hours=9))))
    '2021-08-01T00:10:00.000Z'
    """
    if isinstance(value, datetime):
        return instant(value)
    return value


def assemble(user_id: str, rows: dict[str, Any]) -> dict[str, Any]:
    """The seed's cart document from `{sort_key: value}` rows; items in the order they were added.

    >>> assemble("MAX", {"cart_items#price#靴下ID": 3300, "cart_items#added_at#靴下ID": "t",
    ...                  "ship_to#state": "千葉県"})
    {'user_id': 'MAX', 'cart_items': [{'item_id': '靴下ID', 'price': 3300, 'added_at': 't'}], \
'ship_to': {'state': '千葉県'}}
    """
    items: dict[str, dict[str, Any]] = {}
    ship_to: dict[str, Any] = {}
    for key, value in rows.items():
        section, rest = key.split("#", 1)
        if section == ITEMS:
            field, item_id = rest.split("#", 1)
            items.setdefault(item_id, {"item_id": item_id})[field] = value
        elif section == SHIP_TO:
            ship_to[rest] = value
    ordered = sorted(items.values(), key=lambda item: (str(item.get("added_at", "")), item["item_id"]))
    return {
        "user_id": user_id,
        "cart_items": [_in_field_order(item) for item in ordered],
        "ship_to": {name: ship_to[name] for name in sorted(ship_to, key=_ship_to_order)} or None,
    }


def _ship_to_order(name: str) -> tuple[int, str]:
    order = list(ShipToIn.model_fields)  # the seed's order: name, address, city, state, ...
    return (order.index(name) if name in order else len(order), name)


def _in_field_order(item: dict[str, Any]) -> dict[str, Any]:
    order = [
        "item_name",
        "item_id",
        *(field.value for field in ItemField if field is not ItemField.ITEM_NAME),
    ]
    return {name: item[name] for name in order if name in item}
