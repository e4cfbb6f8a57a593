"""The InvoiceAndBilling table: one Query per read, one transaction per write, SDK errors translated.

Reads: an invoice is one Query of its partition; a customer's or a bill's invoices are one Query of
the inverted index GSI_1. A write replaces an invoice with every item it owns in one
TransactWriteItems, deleting the edges it no longer has, guarded by the invoice's version
(`common.versioned`) so two concurrent PUTs cannot interleave.
"""

from __future__ import annotations

from typing import Any

from tatami_functions.common.paging import Item, ReadStats, cut, start_key
from tatami_functions.common.versioned import VersionedTable, guard
from tatami_functions.invoices.adjacency import INVOICE, key
from tatami_functions.invoices.exceptions import InvoiceConflictError, InvoicesUnavailableError
from tatami_functions.invoices.settings import InvoicesSettings
from tatami_functions.invoices.table import INVERTED, INVOICES


class InvoicesRepository(VersionedTable):
    """The adjacency-list table.

    For example (not run as a doctest)::

        invoices = InvoicesRepository("Tatami-Invoices", client=boto3.client("dynamodb"))
        len(invoices.partition("1420")[0])
        # -> 4
    """

    unavailable, settings = InvoicesUnavailableError, InvoicesSettings
    conflict, entity = InvoiceConflictError, "invoice"

    def partition(self, invoice_id: str) -> tuple[list[Item], ReadStats]:
        """The items of the invoice's partition (the invoice, its customer and bill edges): one Query."""
        response = self._call(
            "query",
            TableName=self.table_name,
            KeyConditionExpression="PK = :pk",
            ExpressionAttributeValues={":pk": {"S": key(INVOICE, invoice_id)}},
            ReturnConsumedCapacity="TOTAL",
        )
        return response["Items"], ReadStats.of(response)

    def pointing_at(
        self, entity_key: str, cursor: Item | None, limit: int
    ) -> tuple[list[Item], Item | None, ReadStats]:
        """One Query of GSI_1 for `entity_key`: its own item (on the first page, it sorts first) and a
        page of the edges pointing at it; the next page's cursor; the cost."""
        first_page = cursor is None
        response = self._call(
            "query",
            TableName=self.table_name,
            IndexName=INVERTED.name,
            KeyConditionExpression="SK = :sk",
            ExpressionAttributeValues={":sk": {"S": entity_key}},
            # One more than asked shows whether a next page exists; the entity itself sorts first.
            Limit=limit + 1 + first_page,
            ReturnConsumedCapacity="TOTAL",
            **start_key(cursor),
        )
        items = response["Items"]
        own = [i for i in items if i["PK"]["S"] == entity_key]
        edges, next_key = cut(
            [i for i in items if i["PK"]["S"] != entity_key],
            response.get("LastEvaluatedKey"),
            limit,
            (*INVERTED.key_names, *INVOICES.key_names),
        )
        return [*own, *edges], next_key, ReadStats.of(response)

    def owned(self, invoice_id: str) -> tuple[set[str], int]:
        """The sort keys of the invoice's partition and its version (0: no invoice), read consistently."""
        pk = key(INVOICE, invoice_id)
        return self._partition(pk, pk)

    def replace(self, invoice_id: str, items: list[Item], version: int, owned: set[str]) -> None:
        """Put `items` (the invoice item first) and delete the edges of `owned` they leave out, in one
        transaction guarded by the `version` read."""
        invoice, others = items[0], items[1:]
        actions: list[Any] = [{"Put": {"TableName": self.table_name, "Item": invoice, **guard(version)}}]
        actions += [{"Put": {"TableName": self.table_name, "Item": item}} for item in others]
        kept = {item["SK"]["S"] for item in items if item["PK"] == invoice["PK"]}
        actions += [{"Delete": self._edge(invoice_id, sk)} for sk in sorted(owned - kept)]
        self._transact(actions)

    def remove(self, invoice_id: str, version: int, owned: set[str]) -> None:
        """Delete the invoice and its edges in one transaction guarded by the `version` read."""
        pk = key(INVOICE, invoice_id)
        actions: list[Any] = [{"Delete": self._edge(invoice_id, pk) | guard(version)}]
        actions += [{"Delete": self._edge(invoice_id, sk)} for sk in sorted(owned - {pk})]
        self._transact(actions)

    def _edge(self, invoice_id: str, sort_key: str) -> dict[str, Any]:
        pk = key(INVOICE, invoice_id)
        return {"TableName": self.table_name, "Key": {"PK": {"S": pk}, "SK": {"S": sort_key}}}


def repository() -> InvoicesRepository:
    """The function's repository, named by its environment (created once per execution environment)."""
    return InvoicesRepository.from_environment()
