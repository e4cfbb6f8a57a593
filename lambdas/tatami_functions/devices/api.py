"""Routes of the device-logs model (seed 004): write, assign/escalate, and the four read paths."""

from __future__ import annotations

import time
from http import HTTPStatus
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from tatami_functions.common.api import CREATED, answer_errors, create_resolver, json_response
from tatami_functions.common.instants import AwareInstant, instant
from tatami_functions.common.tokens import decode_token, encode_token
from tatami_functions.devices import logs
from tatami_functions.devices.exceptions import (
    LogConflictError,
    LogNotFoundError,
)
from tatami_functions.devices.items import Reads
from tatami_functions.devices.models import (
    AssignmentIn,
    DeviceLog,
    Level,
    LogIn,
    Name,
)
from tatami_functions.devices.repository import default_table
from tatami_functions.devices.settings import DeviceLogsSettings

app = create_resolver("device logs")

DeviceId = Annotated[str, Path(min_length=1, max_length=128)]
Limit = Annotated[int, Query(ge=1, le=100, description="page size")]
Next = Annotated[str | None, Query(alias="next", max_length=8192, description="token from the previous page")]
From = Annotated[AwareInstant | None, Query(alias="from", description="inclusive, ISO 8601 with zone")]
To = Annotated[AwareInstant | None, Query(description="inclusive, ISO 8601 with zone")]


answer_errors(
    app,
    {
        LogNotFoundError: (HTTPStatus.NOT_FOUND, "{exc}"),
        LogConflictError: (HTTPStatus.CONFLICT, "created_at: {exc}"),
    },
)


@app.post(
    "/devices/<device_id>/logs",
    summary="Record a device log",
    tags=["device logs"],
    responses={**CREATED, 409: {"description": "the device already has a log at this created_at"}},
)
def post_log(device_id: DeviceId, body: Annotated[LogIn, Body()]) -> Response[Any]:
    table = default_table()
    retention = DeviceLogsSettings.from_env().retention_days  # the deployment's default
    log = logs.new_log(device_id, body, table.shards, time.time(), retention)
    table.put(log)
    return json_response(HTTPStatus.CREATED, log.to_json())


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
    return default_table().assign(device_id, level, instant(created_at), changes).to_json()


@app.get("/devices/<device_id>/logs", summary="A device's logs, newest first", tags=["device logs"])
def get_device_logs(
    device_id: DeviceId,
    level: Annotated[Level | None, Query(description="only this level (the key's prefix)")] = None,
    from_: From = None,
    to: To = None,
    limit: Limit = 25,
    next_: Next = None,
) -> dict[str, Any]:
    bounds = _window(from_, to)
    scope = logs.scope("devices.logs", device_id, level, *bounds)
    levels = [level] if level else list(Level)
    reads = Reads()
    found, cursor = default_table().device_logs(
        device_id, levels, bounds, _cursor(next_, scope), limit, reads
    )
    return _page(found, cursor, scope, reads)


@app.get("/operators/<operator>/logs", summary="Logs an operator handled, newest first", tags=["device logs"])
def get_operator_logs(
    operator: Annotated[Name, Path()],
    from_: From = None,
    to: To = None,
    limit: Limit = 25,
    next_: Next = None,
) -> dict[str, Any]:
    bounds = _window(from_, to)
    scope = logs.scope("operators.logs", operator, *bounds)
    reads = Reads()
    found, last = default_table().operator_logs(operator, bounds, _cursor(next_, scope), limit, reads)
    return _page(found, last, scope, reads)


@app.get("/escalations", summary="Escalated logs (the sparse index)", tags=["device logs"])
def get_escalations(
    to: Annotated[Name | None, Query(description="only logs escalated to this person")] = None,
    level: Annotated[Level | None, Query(description="with `to`: only this level")] = None,
    limit: Limit = 25,
    next_: Next = None,
) -> dict[str, Any]:
    if level is not None and to is None:
        raise BadRequestError("level: filters escalations of one person; give `to` as well")
    scope = logs.scope("escalations", to, level)
    reads = Reads()
    found, last = default_table().escalations(to, level, _cursor(next_, scope), limit, reads)
    return _page(found, last, scope, reads)


@app.get("/logs/recent", summary="Every device's logs of the last hours, newest first", tags=["device logs"])
def get_recent_logs(
    hours: Annotated[int, Query(ge=1, le=168, description="window length, at most a week")] = 4,
    limit: Limit = 25,
    next_: Next = None,
) -> dict[str, Any]:
    table = default_table()
    scope = logs.scope("logs.recent", hours)
    cursor = _cursor(next_, scope)
    # The window's start travels in the token: page two must not slide along with the clock.
    start = cursor["since"] if cursor else logs.since(hours, time.time())
    reads = Reads()
    found, merged = table.recent(start, cursor and cursor["merge"], limit, reads)
    return _page(found, merged and {"since": start, "merge": merged}, scope, reads)


def _window(from_: Any, to: Any) -> tuple[str, str]:
    try:
        return logs.window(from_, to)
    except ValueError as exc:
        raise BadRequestError(f"from: {exc}") from None


def _cursor(token: str | None, scope: str) -> Any:
    return decode_token(token, scope) if token else None


def _page(found: list[DeviceLog], cursor: Any, scope: str, reads: Reads) -> dict[str, Any]:
    return {
        "items": [log.to_json() for log in found],
        "next": encode_token(cursor, scope) if cursor else None,
        "stats": {**reads.to_json(), "items_returned": len(found)},
    }
