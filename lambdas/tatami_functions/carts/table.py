"""The carts table (seed 004's `carts`): one row per cart value under the user, and the overloaded GSI.

The GSI's partition is the row's path (`ship_to#state`, `cart_items#added_at#<item>`) and its sort key
`gsi_sk` the value, set only on those two kinds of row: "who has item X in the cart" and "who ships to
prefecture Y" are each one Query. It projects the keys alone: the user id is all either answer needs.
"""

from __future__ import annotations

from tatami_functions.common.tables import IndexSchema, TableSchema

BY_ROW = IndexSchema("GSI_sort_key_gsi_sk", "sort_key", "gsi_sk", keys_only=True)
CARTS = TableSchema("user_id", "sort_key", indexes=(BY_ROW,))
