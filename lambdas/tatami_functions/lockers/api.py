"""Routes of the lockers service (seed 004): drill down by prefecture and location path; lockers by id."""

from __future__ import annotations

from http import HTTPStatus
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from tatami_functions.common.api import (
    CHANGED_MEANWHILE,
    CREATED_OR_REPLACED,
    NO_CONTENT,
    create_resolver,
    json_response,
)
from tatami_functions.common.paging import DEFAULT_LIMIT, Limit, NextToken
from tatami_functions.common.prefectures import Prefecture
from tatami_functions.lockers import service
from tatami_functions.lockers.schemas import Location, LockerId, LockerIn

app = create_resolver("lockers")

Id = Annotated[LockerId, Path()]


@app.get("/lockers", summary="Pick-up lockers of a prefecture, drilled down by location")
def find_lockers(
    state: Annotated[Prefecture, Query(description="prefecture, e.g. 東京都")],
    location: Annotated[Location | None, Query(description="area path, e.g. 千代田区#紀尾井町")] = None,
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
) -> dict[str, Any]:
    return service.in_area(state, location, limit, next_)


@app.get("/lockers/<locker_id>", summary="A locker by id")
def get_locker(locker_id: Id) -> dict[str, Any]:
    return service.locker(locker_id).to_json()


@app.put(
    "/lockers/<locker_id>",
    summary="Add, change or move a locker",
    responses={**CREATED_OR_REPLACED, **CHANGED_MEANWHILE},
)
def put_locker(locker_id: Id, body: Annotated[LockerIn, Body()]) -> Response[Any]:
    locker, created = service.put_locker(locker_id, body)
    return json_response(HTTPStatus.CREATED if created else HTTPStatus.OK, locker.to_json())


@app.delete(
    "/lockers/<locker_id>",
    summary="Remove a locker",
    responses={**NO_CONTENT, **CHANGED_MEANWHILE},
)
def delete_locker(locker_id: Id) -> Response[Any]:
    service.delete_locker(locker_id)
    return Response(status_code=HTTPStatus.NO_CONTENT)
