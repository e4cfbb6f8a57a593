"""The Business table (seed 002) and its BusinessLocation index: writes, GetItem, the drill-down Query.

BusinessLocation (`table.BUSINESS_LOCATION`) is keyed on BusinessType + `Country:State:City` and
projects BusinessName, BusinessAddress and PhoneNumber, so a listing page never reads the base table.
It is sparse: a listing without a location is written without `Location` (DynamoDB refuses an empty
string as an index key, and an absent key keeps the item out of the index, which costs nothing).
"""

from __future__ import annotations

from typing import Any

from tatami_functions.businesses.exceptions import BusinessesUnavailableError, BusinessNotFoundError
from tatami_functions.businesses.locations import LEVELS, SEPARATOR, location_fields, location_key
from tatami_functions.businesses.schemas import Business
from tatami_functions.businesses.settings import BusinessesSettings
from tatami_functions.businesses.table import BUSINESS_LOCATION, BUSINESSES
from tatami_functions.common.attribute_values import low_level, plain
from tatami_functions.common.paging import Item, ListPage, ReadStats, cut, start_key
from tatami_functions.common.repository import TableRepository

# What a page's cursor holds: the index's keys and the table's.
INDEX_KEYS = (*BUSINESS_LOCATION.key_names, *BUSINESSES.key_names)


def location_condition(levels: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    """The sort-key condition for a location drill-down (the seed's three queries).

    A whole location is an equality; a shorter one is `begins_with` up to and including the next
    separator, so `USA:Washington:Spokane` never matches `USA:Washington:Spokane Valley`.

    >>> location_condition(("USA",))
    ('begins_with(#location, :location)', {':location': {'S': 'USA:'}})
    >>> location_condition(("USA", "Washington", "Seattle"))[0]
    '#location = :location'
    """
    if not levels:
        return "", {}
    if len(levels) == len(LEVELS):
        return "#location = :location", {":location": {"S": location_key(levels)}}
    return "begins_with(#location, :location)", {":location": {"S": location_key(levels) + SEPARATOR}}


def shown(item: Item) -> dict[str, Any]:
    """A listing as callers see it: `Location` split back into Country, State and City."""
    business = plain(item, hidden=("Location",))
    if "Location" in item:
        business |= location_fields(item["Location"]["S"])
    return business


class BusinessesRepository(TableRepository):
    """Writes listings and answers "businesses of type T in location L"."""

    noun, unavailable, settings = "businesses", BusinessesUnavailableError, BusinessesSettings

    def save(self, business_id: str, business: Business) -> dict[str, Any]:
        """Create or replace a listing; empty attributes are left out (seed 002: sparse indexes)."""
        values = {k: v for k, v in business.model_dump().items() if v != ""}
        location = business.location()
        item = {"BusinessId": business_id, **values, **({"Location": location} if location else {})}
        self._call("put_item", TableName=self.table_name, Item=low_level(item))
        return shown(low_level(item))

    def get(self, business_id: str) -> dict[str, Any]:
        response = self._call("get_item", TableName=self.table_name, Key={"BusinessId": {"S": business_id}})
        if "Item" not in response:
            raise BusinessNotFoundError(business_id)
        return shown(response["Item"])

    def by_location(
        self, business_type: str, levels: tuple[str, ...], limit: int, cursor: Item | None = None
    ) -> ListPage:
        """One Query of BusinessLocation: BusinessType = type [AND the location condition]."""
        condition, values = location_condition(levels)
        request: dict[str, Any] = {
            "TableName": self.table_name,
            "IndexName": BUSINESS_LOCATION.name,
            "KeyConditionExpression": " AND ".join(filter(None, ["BusinessType = :type", condition])),
            "ExpressionAttributeValues": {":type": {"S": business_type}, **values},
            "Limit": limit + 1,
            "ReturnConsumedCapacity": "TOTAL",
            **start_key(cursor),
        }
        if condition:  # LOCATION is one of DynamoDB's reserved words
            request["ExpressionAttributeNames"] = {"#location": "Location"}
        response = self._call("query", **request)
        items, next_key = cut(response["Items"], response.get("LastEvaluatedKey"), limit, INDEX_KEYS)
        return ListPage([shown(item) for item in items], next_key, ReadStats.of(response))


def repository() -> BusinessesRepository:
    """The function's repository, named by its environment (made once per execution environment)."""
    return BusinessesRepository.from_environment()
