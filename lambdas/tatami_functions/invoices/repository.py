"""The InvoiceAndBilling table: one Query per read, one transaction per write, ClientError translation.

Reads: an invoice is one Query of its partition; a customer's or a bill's invoices are one Query of
the inverted index GSI_1. Writes replace an invoice with every item it owns in one
TransactWriteItems, deleting the edges it no longer has, guarded by the invoice's version so two
concurrent PUTs cannot interleave.
"""

from __future__ import annotations

from typing import Any

from tatami_functions.common.attribute_values import low_level
from tatami_functions.common.paging import Item, ListPage, ReadStats, cut, start_key
from tatami_functions.common.versioned import VersionedTable, guard
from tatami_functions.invoices.exceptions import (
    InvoiceConflictError,
    InvoiceNotFoundError,
    InvoicesUnavailableError,
)
from tatami_functions.invoices.items import (
    INDEX,
    INVOICE,
    KEYS,
    invoice_items,
    invoice_view,
    key,
    split_related,
)
from tatami_functions.invoices.models import InvoiceIn
from tatami_functions.invoices.settings import InvoicesSettings


class InvoicesTable(VersionedTable):
    """The lab's adjacency-list table.

    >>> table = InvoicesTable("Tatami-Invoices", client=boto3.client("dynamodb"))  # doctest: +SKIP
    >>> table.invoice("1420")[0]["status"]  # doctest: +SKIP
    'Open'
    """

    unavailable, settings = InvoicesUnavailableError, InvoicesSettings
    conflict, entity = InvoiceConflictError, "invoice"

    def invoice(self, invoice_id: str) -> tuple[dict[str, Any], ReadStats]:
        """The invoice with its customer and bills: one Query of its partition."""
        pk = key(INVOICE, invoice_id)
        response = self._call(
            "query",
            TableName=self.table_name,
            KeyConditionExpression="PK = :pk",
            ExpressionAttributeValues={":pk": {"S": pk}},
            ReturnConsumedCapacity="TOTAL",
        )
        view = invoice_view(response["Items"])
        if view is None:
            raise InvoiceNotFoundError(f"no invoice {invoice_id}")
        return view, ReadStats.of(response)

    def related(
        self, entity_key: str, cursor: Item | None, limit: int
    ) -> tuple[dict[str, Any] | None, ListPage]:
        """A customer or bill (on the first page) and the invoices pointing at it: one Query of GSI_1."""
        first_page = cursor is None
        response = self._call(
            "query",
            TableName=self.table_name,
            IndexName=INDEX,
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
            [i for i in items if i["PK"]["S"] != entity_key], response.get("LastEvaluatedKey"), limit, KEYS
        )
        entity, invoices = split_related([*own, *edges], entity_key)
        if first_page and entity is None and not invoices:
            raise InvoiceNotFoundError(f"nothing is known of {entity_key}")
        return entity, ListPage(invoices, next_key, ReadStats.of(response))

    def put(self, invoice_id: str, body: InvoiceIn) -> tuple[bool, dict[str, Any]]:
        """Write the invoice and everything it owns in one transaction; (is it new?, the invoice)."""
        owned, version = self._owned(invoice_id)
        items = [low_level(item) for item in invoice_items(invoice_id, body, version + 1)]
        invoice, others = items[0], items[1:]
        actions: list[Any] = [{"Put": {"TableName": self.table_name, "Item": invoice, **guard(version)}}]
        actions += [{"Put": {"TableName": self.table_name, "Item": item}} for item in others]
        kept = {item["SK"]["S"] for item in items if item["PK"] == invoice["PK"]}
        actions += [{"Delete": self._edge(invoice_id, sk)} for sk in sorted(owned - kept)]
        self._transact(actions)
        view = invoice_view([item for item in items if item["PK"] == invoice["PK"]])
        assert view is not None  # the invoice item is among them
        return version == 0, view

    def delete(self, invoice_id: str) -> None:
        """Remove the invoice and its edges (its customer and bills stay: others may point at them)."""
        owned, version = self._owned(invoice_id)
        if version == 0:
            raise InvoiceNotFoundError(f"no invoice {invoice_id}")
        pk = key(INVOICE, invoice_id)
        actions: list[Any] = [{"Delete": self._edge(invoice_id, pk) | guard(version)}]
        actions += [{"Delete": self._edge(invoice_id, sk)} for sk in sorted(owned - {pk})]
        self._transact(actions)

    def _edge(self, invoice_id: str, sort_key: str) -> dict[str, Any]:
        pk = key(INVOICE, invoice_id)
        return {"TableName": self.table_name, "Key": {"PK": {"S": pk}, "SK": {"S": sort_key}}}

    def _owned(self, invoice_id: str) -> tuple[set[str], int]:
        """The sort keys of the invoice's partition and its version (0: no invoice), read consistently."""
        pk = key(INVOICE, invoice_id)
        return self._partition(pk, pk)


def default_table() -> InvoicesTable:
    """The function's table, named by its environment (created once per execution environment)."""
    return InvoicesTable.from_environment()
