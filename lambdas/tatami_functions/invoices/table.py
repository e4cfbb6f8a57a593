"""The InvoiceAndBilling table, declared once: `PK`/`SK` and GSI_1, the same keys inverted.

GSI_1 (partition SK, sort PK) answers the adjacency list's other direction: a customer's or a bill's
invoices (`adjacency.py`). The repository queries by this name; the construct builds the table from
this declaration.
"""

from __future__ import annotations

from tatami_functions.common.tables import IndexSchema, TableSchema

INVERTED = IndexSchema("GSI_1", "SK", "PK")
INVOICES = TableSchema("PK", "SK", indexes=(INVERTED,))
