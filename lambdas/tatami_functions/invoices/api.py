"""Routes of the invoices service (the adjacency list): an invoice with its bills, a customer's or a
bill's invoices."""

from __future__ import annotations

from http import HTTPStatus
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Path

from tatami_functions.common.api import (
    CHANGED_MEANWHILE,
    CREATED_OR_REPLACED,
    NO_CONTENT,
    create_resolver,
    json_response,
)
from tatami_functions.common.paging import DEFAULT_LIMIT, Limit, NextToken, ReadStats, cursor_from, scope
from tatami_functions.invoices import service
from tatami_functions.invoices.schemas import ID_PATTERN, InvoiceIn

app = create_resolver("invoices")

Id = Annotated[str, Path(pattern=ID_PATTERN, description="Letters, digits, '_', '.', '-' (1..36)")]


@app.get("/invoices/<id>", summary="An invoice with its customer and bills (one Query)")
def get_invoice(id: Id) -> dict[str, Any]:
    invoice, stats = service.invoice(id)
    return {**invoice, "stats": stats_json(stats)}


@app.put(
    "/invoices/<id>",
    summary="Create or replace an invoice, its bill lines and customer",
    responses={**CREATED_OR_REPLACED, **CHANGED_MEANWHILE},
)
def put_invoice(id: Id, body: Annotated[InvoiceIn, Body()]) -> Response[Any]:
    created, invoice = service.put(id, body)
    return json_response(HTTPStatus.CREATED if created else HTTPStatus.OK, invoice)


@app.delete(
    "/invoices/<id>",
    summary="Remove an invoice and its edges",
    responses={**NO_CONTENT, **CHANGED_MEANWHILE},
)
def delete_invoice(id: Id) -> Response[Any]:
    service.delete(id)
    return Response(status_code=HTTPStatus.NO_CONTENT)


@app.get("/customers/<id>/invoices", summary="A customer and its invoices (one Query of GSI_1)")
def customer_invoices(id: Id, limit: Limit = DEFAULT_LIMIT, next_: NextToken = None) -> dict[str, Any]:
    return related("customer", id, limit, next_)


@app.get("/bills/<id>", summary="A bill and the invoices it covers (one Query of GSI_1)")
def bill_invoices(id: Id, limit: Limit = DEFAULT_LIMIT, next_: NextToken = None) -> dict[str, Any]:
    return related("bill", id, limit, next_)


def related(kind: service.Related, entity_id: str, limit: int, token: str | None) -> dict[str, Any]:
    """The page of a customer's or a bill's invoices; the entity itself comes with the first page."""
    token_scope = scope(f"invoices.{kind}", id=entity_id)
    entity, page = service.related(kind, entity_id, cursor_from(token, token_scope), limit)
    body = page.body(token_scope)
    return {kind: entity, **body, "stats": {**body["stats"], "items_returned": len(page.items)}}


def stats_json(stats: ReadStats) -> dict[str, Any]:
    return {"items_read": stats.items_read, "queries": stats.queries, "consumed_rcu": stats.consumed_rcu}
