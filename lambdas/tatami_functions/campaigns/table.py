"""The campaign users table: profiles by user id and one selective GSI per targeting condition.

Each GSI is a static reverse lookup from a value to the users who have it, sorted by user id (so any
of them can seek, and they can be intersected) and KEYS_ONLY (the id is all a candidate search reads).
A profile without a value stays out of that index.
"""

from __future__ import annotations

from tatami_functions.common.tables import IndexSchema, Key, TableSchema

BY_PREFECTURE = IndexSchema("GSI_prefecture", "prefecture", "user_id", keys_only=True)
BY_BIRTH_MONTH = IndexSchema("GSI_birth_month", Key("birth_month", "N"), "user_id", keys_only=True)
BY_LAST_ORDER_MONTH = IndexSchema(
    "GSI_last_order_month", Key("last_order_month", "N"), "user_id", keys_only=True
)
CAMPAIGN_USERS = TableSchema("user_id", indexes=(BY_PREFECTURE, BY_BIRTH_MONTH, BY_LAST_ORDER_MONTH))
