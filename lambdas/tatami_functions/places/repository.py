"""The places table: one item per place, ``id`` its key; ``name``, ``latitude``, ``longitude``,
``population``, optional ``country``; and the index keys the engine's maintainer writes.

Writers of user attributes never touch the index keys, so a write that leaves the searched attributes
unchanged keeps the item's keys and costs no maintenance write.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from typing import Any, Self

from tatami_functions.common.repository import TableRepository
from tatami_functions.places.exceptions import PlaceNotFoundError, PlacesUnavailableError
from zindex import IndexedTable
from zindex.dynamojson import to_item, to_wire, to_wire_item

USER_ATTRIBUTES = ("name", "latitude", "longitude", "population", "country")


class PlacesTable(TableRepository):
    """Get and put places (search goes through the engine: ``places.search``)."""

    noun, unavailable = "places", PlacesUnavailableError

    @classmethod
    def _from_env(cls) -> Self:
        """Named by the engine's declaration in the environment (the ZOrderIndex construct sets it)."""
        return cls(IndexedTable.from_env(os.environ).table)

    def get(self, place_id: str) -> dict[str, Any]:
        """The item with this id; raises PlaceNotFoundError."""
        response = self._call("get_item", TableName=self.table_name, Key={"id": {"S": place_id}})
        if "Item" not in response:
            raise PlaceNotFoundError(place_id)
        return to_item(response["Item"])

    def put(self, place_id: str, attributes: Mapping[str, Any]) -> dict[str, Any]:
        """Replace the user attributes of a place (index keys untouched); returns the stored item."""
        names = {f"#a{i}": name for i, name in enumerate(USER_ATTRIBUTES)}
        given = [i for i, name in enumerate(USER_ATTRIBUTES) if attributes.get(name) is not None]
        missing = [i for i, name in enumerate(USER_ATTRIBUTES) if attributes.get(name) is None]
        expression = "SET " + ", ".join(f"#a{i} = :v{i}" for i in given)
        if missing:
            expression += " REMOVE " + ", ".join(f"#a{i}" for i in missing)
        response = self._call(
            "update_item",
            TableName=self.table_name,
            Key={"id": {"S": place_id}},
            UpdateExpression=expression,
            ExpressionAttributeNames=names,
            ExpressionAttributeValues={f":v{i}": to_wire(attributes[USER_ATTRIBUTES[i]]) for i in given},
            ReturnValues="ALL_NEW",
        )
        return to_item(response["Attributes"])

    def write_many(self, items: Sequence[Mapping[str, Any]]) -> int:
        """Bulk-write whole items with BatchWriteItem (25 per call, unprocessed ones retried); the count."""
        pending = [{"PutRequest": {"Item": to_wire_item(item)}} for item in items]
        for start in range(0, len(pending), 25):
            batch, attempt = pending[start : start + 25], 0
            while batch:
                if attempt:  # unprocessed items: the table is busy, back off before retrying them
                    time.sleep(min(0.05 * 2**attempt, 2.0))
                response = self._call("batch_write_item", RequestItems={self.table_name: batch})
                batch, attempt = response.get("UnprocessedItems", {}).get(self.table_name, []), attempt + 1
        return len(pending)


def environment_table() -> PlacesTable:
    """The function's table (named by the engine's declaration), made once per execution environment."""
    return PlacesTable.from_environment()
