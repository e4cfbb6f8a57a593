"""The documents table: `report_id` its key, and the list path's GSI on user and status/date.

The GSI projects `summary` (INCLUDE; its keys and `report_id` come with it) and never the body, so
listing a user's documents reads a few dozen bytes each (`reports.py` has the seed's arithmetic).
"""

from __future__ import annotations

from tatami_functions.common.tables import IndexSchema, TableSchema

BY_USER = IndexSchema("GSI_user_id_status_with_created_on", "user_id", "status_with_created_on", ("summary",))
DOCUMENTS = TableSchema("report_id", indexes=(BY_USER,))
