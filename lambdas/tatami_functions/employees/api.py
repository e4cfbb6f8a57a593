"""Routes of the employees service: write an employee, read one, and ask the three GSIs."""

from __future__ import annotations

from http import HTTPStatus
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from tatami_functions.common.api import (
    CHANGED_MEANWHILE,
    CREATED_OR_REPLACED,
    NO_CONTENT,
    create_resolver,
    json_response,
)
from tatami_functions.common.paging import DEFAULT_LIMIT, Limit, ListPage, NextToken, cursor_from, scope
from tatami_functions.employees import service
from tatami_functions.employees.exceptions import (
    QuestionError,
)
from tatami_functions.employees.schemas import MAX_ID, EmployeeIn, KeyPart, Name

app = create_resolver("employees")

Id = Annotated[int, Path(ge=1, le=MAX_ID, description="The employee id (1..10^9)")]


@app.get("/employees", summary="Employees by name, title, previous title or place (one Query)")
def find_employees(
    name: Annotated[Name | None, Query(description="exact name (GSI_1, master entries)")] = None,
    title: Annotated[KeyPart | None, Query(description="current title (GSI_1)")] = None,
    previous_title: Annotated[KeyPart | None, Query(description="previous title (GSI_1)")] = None,
    state: Annotated[KeyPart | None, Query(description="state (GSI_3 state#<state>)")] = None,
    city: Annotated[KeyPart | None, Query(description="with state: city (GSI_3 <city>#...)")] = None,
    department: Annotated[KeyPart | None, Query(description="with city: department")] = None,
    sort: Annotated[Literal["place", "name"], Query(description="a state's order: place or name")] = "place",
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
) -> dict[str, Any]:
    try:
        lookup = service.plan(name, title, previous_title, state, city, department, sort)
    except QuestionError as exc:
        raise BadRequestError(str(exc)) from None
    # The token is bound to the question: a page of one question cannot continue another.
    token_scope = scope("employees", index=lookup.index, condition=lookup.condition, of=lookup.values)
    return page_body(service.find(lookup, cursor_from(next_, token_scope), limit), token_scope)


@app.get("/employees/managers", summary="Every manager by name (the sparse GSI_2)")
def managers(limit: Limit = DEFAULT_LIMIT, next_: NextToken = None) -> dict[str, Any]:
    token_scope = scope("employees.managers")
    return page_body(service.managers(cursor_from(next_, token_scope), limit), token_scope)


@app.get("/employees/<id>", summary="An employee (GetItem)")
def get_employee(id: Id) -> dict[str, Any]:
    employee, stats = service.employee(id)
    return {**employee, "stats": {"items_read": stats.items_read, "consumed_rcu": stats.consumed_rcu}}


@app.put(
    "/employees/<id>",
    summary="Create or replace an employee and its index entries",
    responses={**CREATED_OR_REPLACED, **CHANGED_MEANWHILE},
)
def put_employee(id: Id, body: Annotated[EmployeeIn, Body()]) -> Response[Any]:
    created, employee = service.put(id, body)
    return json_response(HTTPStatus.CREATED if created else HTTPStatus.OK, employee)


@app.delete(
    "/employees/<id>",
    summary="Remove an employee and its index entries",
    responses={**NO_CONTENT, **CHANGED_MEANWHILE},
)
def delete_employee(id: Id) -> Response[Any]:
    service.delete(id)
    return Response(status_code=HTTPStatus.NO_CONTENT)


def page_body(page: ListPage, token_scope: str) -> dict[str, Any]:
    body = page.body(token_scope)
    return {**body, "stats": {**body["stats"], "items_returned": len(page.items)}}
