"""Routes of the device logs (seed 004): write, assign/escalate, and the four read paths."""

from __future__ import annotations

from datetime import datetime
from http import HTTPStatus
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from tatami_functions.common.api import CREATED, create_resolver, json_response
from tatami_functions.common.instants import AwareInstant
from tatami_functions.common.paging import DEFAULT_LIMIT, Limit, NextToken
from tatami_functions.devices import service
from tatami_functions.devices.schemas import AssignmentIn, Level, LogIn, Name

app = create_resolver("device logs")

DeviceId = Annotated[str, Path(min_length=1, max_length=128)]
From = Annotated[AwareInstant | None, Query(alias="from", description="inclusive, ISO 8601 with zone")]
To = Annotated[AwareInstant | None, Query(description="inclusive, ISO 8601 with zone")]


@app.post(
    "/devices/<device_id>/logs",
    summary="Record a device log",
    tags=["device logs"],
    responses={**CREATED, 409: {"description": "the device already has a log at this created_at"}},
)
def post_log(device_id: DeviceId, body: Annotated[LogIn, Body()]) -> Response[Any]:
    return json_response(HTTPStatus.CREATED, service.record_log(device_id, body).to_json())


@app.patch(
    "/devices/<device_id>/logs/<level>/<created_at>",
    summary="Assign a log to an operator or escalate it (null removes)",
    tags=["device logs"],
)
def patch_log(
    device_id: DeviceId,
    level: Annotated[Level, Path()],
    created_at: Annotated[AwareInstant, Path()],
    body: Annotated[AssignmentIn, Body()],
) -> dict[str, Any]:
    changes = {name: getattr(body, name) for name in sorted(body.model_fields_set)}
    if not changes:
        raise BadRequestError("body: give operator and/or escalated_to (null removes it)")
    return service.assign(device_id, level, created_at, changes).to_json()


@app.get("/devices/<device_id>/logs", summary="A device's logs, newest first", tags=["device logs"])
def get_device_logs(
    device_id: DeviceId,
    level: Annotated[Level | None, Query(description="only this level (the key's prefix)")] = None,
    from_: From = None,
    to: To = None,
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
) -> dict[str, Any]:
    return service.device_logs(device_id, level, _window(from_, to), limit, next_)


@app.get("/operators/<operator>/logs", summary="Logs an operator handled, newest first", tags=["device logs"])
def get_operator_logs(
    operator: Annotated[Name, Path()],
    from_: From = None,
    to: To = None,
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
) -> dict[str, Any]:
    return service.operator_logs(operator, _window(from_, to), limit, next_)


@app.get("/escalations", summary="Escalated logs (the sparse index)", tags=["device logs"])
def get_escalations(
    to: Annotated[Name | None, Query(description="only logs escalated to this person")] = None,
    level: Annotated[Level | None, Query(description="with `to`: only this level")] = None,
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
) -> dict[str, Any]:
    if level is not None and to is None:
        raise BadRequestError("level: filters escalations of one person; give `to` as well")
    return service.escalations(to, level, limit, next_)


@app.get("/logs/recent", summary="Every device's logs of the last hours, newest first", tags=["device logs"])
def get_recent_logs(
    hours: Annotated[int, Query(ge=1, le=168, description="window length, at most a week")] = 4,
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
) -> dict[str, Any]:
    return service.recent(hours, limit, next_)


def _window(from_: datetime | None, to: datetime | None) -> tuple[str, str]:
    try:
        return service.window(from_, to)
    except ValueError as exc:
        raise BadRequestError(f"from: {exc}") from None
