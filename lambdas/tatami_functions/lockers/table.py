"""The lockers table (seed 004's `pick_up_locations`): prefecture, then the area path and locker id.

The sort key reads "千代田区#紀尾井町#<locker id>", so drilling down is `begins_with` on it; no GSI.
"""

from __future__ import annotations

from tatami_functions.common.tables import TableSchema

LOCKERS = TableSchema("state", "location")
