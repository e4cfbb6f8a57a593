"""The campaign_users table: profiles keyed by user_id, three selective GSIs (KEYS_ONLY), seeks on them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tatami_functions.campaigns.exceptions import CampaignsUnavailableError, ProfileNotFoundError
from tatami_functions.campaigns.intersect import LOWEST, Seek
from tatami_functions.campaigns.models import Condition
from tatami_functions.campaigns.settings import CampaignsSettings
from tatami_functions.common.attribute_values import deserialize, serialize
from tatami_functions.common.repository import TableRepository


@dataclass
class IndexReads:
    """What the candidate search read, per index (items are the index's, a few dozen bytes each)."""

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


class CampaignUsersTable(TableRepository):
    """The seed's campaign base table and its per-condition GSIs.

    >>> users = CampaignUsersTable("Tatami-CampaignUsers", client=boto3.client("dynamodb"))  # doctest: +SKIP
    >>> users.profile("MAX")  # doctest: +SKIP
    {'user_id': 'MAX', 'prefecture': '千葉県', 'birth_month': 12, 'last_order_month': 12}
    """

    noun, unavailable, settings = "campaign users", CampaignsUnavailableError, CampaignsSettings

    def put_profile(self, user_id: str, values: dict[str, Any]) -> None:
        """Replace a profile; attributes left out are absent, so the user leaves those indexes."""
        item = {"user_id": user_id, **{k: v for k, v in values.items() if v is not None}}
        self._call("put_item", TableName=self.table_name, Item={k: serialize(v) for k, v in item.items()})

    def profile(self, user_id: str) -> dict[str, Any]:
        response = self._call("get_item", TableName=self.table_name, Key={"user_id": {"S": user_id}})
        if "Item" not in response:
            raise ProfileNotFoundError(f"no campaign profile for user {user_id}")
        values = {name: deserialize(value) for name, value in response["Item"].items()}
        return {k: v if isinstance(v, str) else int(v) for k, v in values.items()}

    def seeker(self, condition: Condition, reads: IndexReads) -> Seek:
        """A seek on one selective index: the ids >= a bound among users meeting `condition`."""

        def seek(low: str, limit: int) -> tuple[list[str], bool]:
            key_condition = "#attribute = :value" + (" AND user_id >= :low" if low != LOWEST else "")
            values = {":value": condition.typed_value, **({":low": {"S": low}} if low != LOWEST else {})}
            response = self._call(
                "query",
                TableName=self.table_name,
                IndexName=condition.index,
                KeyConditionExpression=key_condition,
                ExpressionAttributeNames={"#attribute": condition.attribute},
                ExpressionAttributeValues=values,
                Limit=limit,
                ReturnConsumedCapacity="TOTAL",
            )
            reads.queries += 1
            reads.items_read[condition.name] = (
                reads.items_read.get(condition.name, 0) + response["ScannedCount"]
            )
            reads.consumed_rcu += float(response.get("ConsumedCapacity", {}).get("CapacityUnits", 0.0))
            return [item["user_id"]["S"] for item in response["Items"]], "LastEvaluatedKey" in response

        return seek


def default_table() -> CampaignUsersTable:
    """The function's table, named by its environment (created once per execution environment)."""
    return CampaignUsersTable.from_environment()
