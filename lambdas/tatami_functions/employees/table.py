"""The employees table, declared once: `PK`/`SK` and its three GSIs (`partition.py` draws the items).

GSI_1 is overloaded (its key holds a different attribute per item kind), GSI_2 is sparse (keyed on
`is_manager`, which only managers' master items carry) and GSI_3 is composite (`state#<state>` /
`<city>#<department>`). The repository queries by these names; the construct builds the table from
this declaration.
"""

from __future__ import annotations

from tatami_functions.common.tables import IndexSchema, TableSchema

OVERLOADED = IndexSchema("GSI_1", "GSI_1_PK", "GSI_1_SK")
MANAGERS = IndexSchema("GSI_2", "is_manager", "name")
PLACES = IndexSchema("GSI_3", "GSI_3_PK", "GSI_3_SK")
EMPLOYEES = TableSchema("PK", "SK", indexes=(OVERLOADED, MANAGERS, PLACES))
