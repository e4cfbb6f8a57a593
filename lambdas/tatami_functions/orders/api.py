"""Routes of the orders model (seed 002): place and read orders, a customer's orders, orders by status."""

from __future__ import annotations

from decimal import Decimal
from http import HTTPStatus
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query
from pydantic import WithJsonSchema

from tatami_functions.common.api import CREATED, answer_errors, create_resolver, json_response
from tatami_functions.common.instants import Instant, bounds, just_before
from tatami_functions.common.paging import DEFAULT_LIMIT, Limit, NextToken
from tatami_functions.orders import service
from tatami_functions.orders.schemas import (
    ID_PATTERN,
    CustomerOrdersQuery,
    NewOrder,
    Status,
    StatusChange,
    StatusOrdersQuery,
)
from zindex import BadQueryError

app = create_resolver("orders")

Id = Annotated[str, Path(pattern=ID_PATTERN, description="Letters, digits, '_', '.', '-' (1..36)")]
When = Annotated[Instant | None, Query(description="An instant (ISO 8601; UTC if no offset)")]
From = Annotated[Instant | None, Query(alias="from", description="Orders at or after (ISO 8601)")]
# A bound on the total: validated as a Decimal in [0, 1e9], documented as the number it is (pydantic
# documents a Decimal as "a number or any string").
MAX_TOTAL = Decimal("1e9")
TOTAL = WithJsonSchema({"type": "number", "minimum": 0, "maximum": float(MAX_TOTAL)})


# The engine's BadQueryError reads "<parameter>: <reason>": a 400 naming the parameter.
answer_errors(app, {BadQueryError: (HTTPStatus.BAD_REQUEST, "{exc}")})


SEARCH_PARAMETERS = {  # the engine's name for a bound -> this route's parameter
    "OrderDate_min": "from",
    "OrderDate_max": "to",
    "Total_min": "total_min",
    "Total_max": "total_max",
    "Status_min": "status",
    "Status_max": "status",
}


@app.get("/orders/search", summary="Orders by date, total and status at once (the Z-order index, by cost)")
def search_orders(
    from_: From = None,
    to: When = None,
    total_min: Annotated[
        Decimal | None, Query(ge=0, le=MAX_TOTAL, description="Smallest total"), TOTAL
    ] = None,
    total_max: Annotated[
        Decimal | None, Query(ge=0, le=MAX_TOTAL, description="Largest total"), TOTAL
    ] = None,
    status: Annotated[Status | None, Query(description="Only orders in this status")] = None,
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
    explain: Annotated[bool, Query(description="Also return every candidate plan with its estimate")] = False,
) -> dict[str, Any]:
    """Bounds are inclusive, any subset may be given; results are exact, with what the search read and
    cost and the plan chosen. ``total_min > total_max`` is a 400 naming ``total_min``."""
    if total_min is not None and total_max is not None and total_min > total_max:
        raise BadRequestError(f"total_min: {total_min} is greater than total_max {total_max}")
    try:
        return service.search(bounds(from_, to), (total_min, total_max), status, limit, next_, explain)
    except BadQueryError as exc:  # the engine names the attribute's bound; the caller sent a parameter
        raise BadQueryError(SEARCH_PARAMETERS.get(exc.field, exc.field), exc.reason) from None


@app.post(
    "/orders",
    summary="Place an order: the order and the customer's summary in one transaction",
    responses={**CREATED, 409: {"description": "an order with this OrderId exists"}},
)
def place_order(order: Annotated[NewOrder, Body()]) -> Response[Any]:
    return json_response(HTTPStatus.CREATED, service.place_order(order))


@app.get("/orders/<id>", summary="One order (GetItem)")
def get_order(id: Id) -> dict[str, Any]:
    return service.order(id)


@app.patch("/orders/<id>", summary="Change an order's status (and the index keys derived from it)")
def change_status(id: Id, change: Annotated[StatusChange, Body()]) -> dict[str, Any]:
    return service.change_status(id, change.Status)


@app.get("/orders", summary="Orders in a status since a date: N parallel Queries of the sharded index")
def orders_by_status(
    status: Annotated[Status, Query(description="The status")],
    since: When = None,
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
) -> dict[str, Any]:
    low, _ = bounds(since, None, ("since", "-"))
    return service.status_orders(StatusOrdersQuery(status, low), limit, next_)


@app.get("/customers/<id>", summary="A customer's summary: order count, total spent, last order")
def get_customer(id: Id) -> dict[str, Any]:
    return service.customer(id)


@app.get(
    "/customers/<id>/orders", summary="A customer's orders by date (CustomerOrders, CustomerStatusOrders)"
)
def customer_orders(
    id: Id,
    status: Annotated[Status | None, Query(description="Only orders in this status")] = None,
    from_: From = None,
    to: When = None,
    before: When = None,
    order: Annotated[Literal["asc", "desc"], Query(description="OrderDate order")] = "asc",
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
) -> dict[str, Any]:
    if to is not None and before is not None:
        raise BadRequestError("before: give either `to` (inclusive) or `before` (exclusive), not both")
    low, high = bounds(from_, to)
    if before is not None:
        high = just_before(before)
        if low is not None and low > high:
            raise BadRequestError(f"from: {low} is not before `before` {before.isoformat()}")
    query = CustomerOrdersQuery(id, status, low, high, order == "desc")
    return service.customer_orders(query, limit, next_)
