"""Request bodies and parameter types of the carts routes (the seed's cart item and `ship_to`)."""

from __future__ import annotations

import enum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter

from tatami_functions.common.instants import AwareInstant
from tatami_functions.common.prefectures import Prefecture
from tatami_functions.common.text import stripped

Text = Annotated[str, stripped(200)]
ItemId = Annotated[str, StringConstraints(min_length=1, max_length=128, pattern=r"^[^#]+$")]


class ItemField(enum.StrEnum):
    """The fields of a cart item (the seed's), in the order the document shows them."""

    ITEM_NAME = "item_name"
    SKU = "sku"
    QUANTITY = "quantity"
    PRICE = "price"
    CATEGORY = "category"
    SUB_CATEGORY = "sub_category"
    ADDED_AT = "added_at"


class CartItemIn(BaseModel):
    """Body of `PUT /users/{id}/cart/items/{item_id}`; quantity and price are integers (yen)."""

    model_config = ConfigDict(extra="forbid")

    item_name: Text
    sku: Text
    quantity: Annotated[int, Field(ge=1, le=999)]
    price: Annotated[int, Field(ge=0, le=100_000_000)]
    category: Text
    sub_category: Text
    added_at: AwareInstant | None = None


class ShipToIn(BaseModel):
    """Body of `PUT /users/{id}/cart/ship-to` (the seed's `ship_to`)."""

    model_config = ConfigDict(extra="forbid")

    name: Text
    address: Text
    city: Text
    state: Prefecture
    postal_code: Annotated[str, StringConstraints(pattern=r"^\d{3}-\d{4}$")]
    phone: Annotated[str, StringConstraints(pattern=r"^\+?[0-9][0-9-]{5,19}$")]


class FieldValueIn(BaseModel):
    """Body of `PUT /users/{id}/cart/items/{item_id}/{field}`: the new value, checked as the field's."""

    model_config = ConfigDict(extra="forbid")

    value: str | int


def field_adapter(field: ItemField) -> TypeAdapter[Any]:
    """Validates a lone value exactly as `CartItemIn` validates that field."""
    info = CartItemIn.model_fields[field.value]
    if not info.metadata:
        return TypeAdapter(info.annotation)  # type: ignore[arg-type]  # every field is annotated
    return TypeAdapter(Annotated[info.annotation, *info.metadata])  # type: ignore[arg-type]
