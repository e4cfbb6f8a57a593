"""The Business table (seed 002), declared once: the repository queries by it, the construct builds it.

Drill-down by BusinessType + `Country:State:City`. The index is sparse: a business without a whole
location is written without `Location` and so is absent from it. It projects what a listing page
shows, so the page never reads the base table.
"""

from __future__ import annotations

from tatami_functions.common.tables import IndexSchema, TableSchema

BUSINESS_LOCATION = IndexSchema(
    "BusinessLocation",
    "BusinessType",
    "Location",
    include=("BusinessName", "BusinessAddress", "PhoneNumber"),
)
BUSINESSES = TableSchema("BusinessId", indexes=(BUSINESS_LOCATION,))
