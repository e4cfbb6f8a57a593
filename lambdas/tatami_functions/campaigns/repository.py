"""The campaign users table: profiles keyed by user id, and seeks on its selective GSIs (KEYS_ONLY)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tatami_functions.campaigns.conditions import Condition
from tatami_functions.campaigns.exceptions import CampaignsUnavailableError, ProfileNotFoundError
from tatami_functions.campaigns.intersect import LOWEST, Seek
from tatami_functions.campaigns.settings import CampaignsSettings
from tatami_functions.campaigns.table import (
    BY_BIRTH_MONTH,
    BY_LAST_ORDER_MONTH,
    BY_PREFECTURE,
    CAMPAIGN_USERS,
)
from tatami_functions.common.attribute_values import deserialize, serialize
from tatami_functions.common.repository import TableRepository
from tatami_functions.common.tables import IndexSchema

(USER,) = CAMPAIGN_USERS.key_names
# The index each condition (a query parameter of the candidate search) is answered by.
INDEXES: dict[str, IndexSchema] = {
    "prefecture": BY_PREFECTURE,
    "birth_month": BY_BIRTH_MONTH,
    "order_month": BY_LAST_ORDER_MONTH,
}


@dataclass
class IndexReads:
    """What the candidate search read, per condition (index items, a few dozen bytes each)."""

    queries: int = 0
    items_read: dict[str, int] = field(default_factory=dict)
    consumed_rcu: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "queries": self.queries,
            "items_read": sum(self.items_read.values()),
            "items_read_by_index": dict(self.items_read),
            "consumed_rcu": self.consumed_rcu,
        }


class CampaignUsersRepository(TableRepository):
    """The seed's campaign base table and its per-condition GSIs.

    For example (not run as a doctest)::

        users = CampaignUsersRepository("Tatami-CampaignUsers", client=client)
        users.profile("MAX")
        # -> {'user_id': 'MAX', 'prefecture': '千葉県', 'birth_month': 12, 'last_order_month': 12}
    """

    noun, unavailable, settings = "campaign users", CampaignsUnavailableError, CampaignsSettings

    def put_profile(self, user_id: str, values: dict[str, Any]) -> None:
        """Replace a profile; attributes left out are absent, so the user leaves those indexes."""
        item = {USER: user_id, **{k: v for k, v in values.items() if v is not None}}
        self._call("put_item", TableName=self.table_name, Item={k: serialize(v) for k, v in item.items()})

    def profile(self, user_id: str) -> dict[str, Any]:
        response = self._call("get_item", TableName=self.table_name, Key={USER: {"S": user_id}})
        if "Item" not in response:
            raise ProfileNotFoundError(f"no campaign profile for user {user_id}")
        values = {name: deserialize(value) for name, value in response["Item"].items()}
        return {k: v if isinstance(v, str) else int(v) for k, v in values.items()}

    def seeker(self, condition: Condition, reads: IndexReads) -> Seek:
        """A seek on the condition's index: the ids >= a bound among users meeting `condition`."""
        index = INDEXES[condition.name]
        attribute, (_, user) = index.partition_key, index.key_names  # each index sorts by the user id
        value = {attribute.type: str(condition.value)}

        def seek(low: str, limit: int) -> tuple[list[str], bool]:
            bounded = low != LOWEST
            response = self._call(
                "query",
                TableName=self.table_name,
                IndexName=index.name,
                KeyConditionExpression="#attribute = :value" + (f" AND {user} >= :low" if bounded else ""),
                ExpressionAttributeNames={"#attribute": attribute.name},
                ExpressionAttributeValues={":value": value, **({":low": {"S": low}} if bounded else {})},
                Limit=limit,
                ReturnConsumedCapacity="TOTAL",
            )
            reads.queries += 1
            reads.items_read[condition.name] = (
                reads.items_read.get(condition.name, 0) + response["ScannedCount"]
            )
            reads.consumed_rcu += float(response.get("ConsumedCapacity", {}).get("CapacityUnits", 0.0))
            return [item[user]["S"] for item in response["Items"]], "LastEvaluatedKey" in response

        return seek


def repository() -> CampaignUsersRepository:
    """The function's repository, named by its environment (created once per execution environment)."""
    return CampaignUsersRepository.from_environment()
