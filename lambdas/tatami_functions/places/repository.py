"""The places table: one item per place, ``id`` its key; ``name``, ``latitude``, ``longitude``,
``population``, optional ``country``; the index keys the engine's maintainer writes; and the search
through the Z-index engine (``common.index_search``), one page as data: the service signs its cursor.

Writers of user attributes never touch the index keys, so a write that leaves the searched attributes
unchanged keeps the item's keys and costs no maintenance write.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from tatami_functions.common import index_search
from tatami_functions.common.index_search import SearchPage
from tatami_functions.common.repository import TableRepository
from tatami_functions.places.exceptions import PlaceNotFoundError, PlacesUnavailableError
from tatami_functions.places.settings import PlacesSettings
from tatami_functions.places.table import PLACES_TABLE
from zindex.dynamojson import to_item, to_wire

USER_ATTRIBUTES = ("name", "latitude", "longitude", "population", "country")
KEY = PLACES_TABLE.partition_key.name


class PlacesRepository(TableRepository):
    """Get, put and search places."""

    noun, unavailable = "places", PlacesUnavailableError

    @classmethod
    def _from_env(cls) -> Self:
        """Named by the engine's declaration in the environment (the ZOrderIndex construct sets it)."""
        return cls(PlacesSettings.from_env().index.table)

    def get(self, place_id: str) -> dict[str, Any]:
        """The stored item with this id; raises PlaceNotFoundError."""
        response = self._call("get_item", TableName=self.table_name, Key={KEY: {"S": place_id}})
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
            Key={KEY: {"S": place_id}},
            UpdateExpression=expression,
            ExpressionAttributeNames=names,
            ExpressionAttributeValues={f":v{i}": to_wire(attributes[USER_ATTRIBUTES[i]]) for i in given},
            ReturnValues="ALL_NEW",
        )
        return to_item(response["Attributes"])

    def shown(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        """A stored item as the API shows it: no index keys, numbers as JSON numbers (the engine's view)."""
        return index_search.item(stored)

    def search(
        self, bounds: Mapping[str, tuple[Any, Any]], limit: int, cursor: Any, with_plan: bool
    ) -> SearchPage:
        """One page of the places within `bounds` (attribute -> inclusive (low, high)) from `cursor` (the
        previous page's, None for the first) through the Z-index engine (its searcher reads the
        declaration from the environment)."""
        with self._translated("search", "search places"):  # the engine calls DynamoDB with its own client
            return index_search.search_page(index_search.query(bounds), limit, cursor, with_plan)


def repository() -> PlacesRepository:
    """The function's repository, named by the engine's declaration (made once per execution environment)."""
    return PlacesRepository.from_environment()
