"""Routes of the counters service (in the API's OpenAPI document, generated at synthesis).

`PUT /counters/{name}` creates a counter sized by the seed's formula (or grows it),
`POST /counters/{name}/increments` adds to it (once per `Idempotency-Key`), `GET /counters/{name}`
reads it: the exact sum of its shards, or `?source=rollup` for the stream-maintained total.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from tatami_functions.common.api import create_resolver, json_response
from tatami_functions.counters import service
from tatami_functions.counters.schemas import CounterName, CounterSpec, IdempotencyKey, IncrementBody

app = create_resolver()


@app.put(
    "/counters/<name>",
    summary="Create a counter sized for a write rate, or grow its shards",
    responses={
        200: {"description": "the counter exists (grown or unchanged)"},
        201: {"description": "created"},
        400: {"description": "a field is invalid (named in the message)"},
        409: {"description": "fewer shards than the counter has: shard counts only grow"},
    },
)
def put_counter(name: CounterName, spec: Annotated[CounterSpec | None, Body()] = None) -> Response[Any]:
    spec = spec or CounterSpec()
    sized = spec.target_wcu is not None or spec.safety_factor is not None
    wanted = service.plan(name, spec.target_wcu, spec.safety_factor)
    config, outcome = service.create_or_grow(wanted, keep_existing=not sized)
    status = HTTPStatus.CREATED if outcome == "created" else HTTPStatus.OK
    return json_response(status, {**config.to_json(), "outcome": outcome})


@app.post(
    "/counters/<name>/increments",
    summary="Add to a counter (once per Idempotency-Key)",
    responses={
        200: {"description": "counted (or replayed: `replayed` and the Idempotent-Replayed header)"},
        400: {"description": "a field is invalid (named in the message)"},
        404: {"description": "no such counter: create it with PUT"},
        409: {"description": "a request with this Idempotency-Key is committing right now (Retry-After)"},
        422: {"description": "this Idempotency-Key was used with a different `by`"},
    },
)
def post_increment(
    name: CounterName, body: IncrementBody, idempotency_key: IdempotencyKey = None
) -> Response[Any]:
    identity = app.current_event.request_context.identity
    caller = identity.user_arn or identity.api_key_id or ""
    result = service.increment(name, body.by, idempotency_key, caller)
    headers = {"Idempotent-Replayed": "true"} if result["replayed"] else None
    return Response(HTTPStatus.OK, content_types.APPLICATION_JSON, result, headers)


@app.get(
    "/counters/<name>",
    summary="A counter's value: the sum of its shards, or the roll-up",
    responses={
        200: {"description": "the value; `as_of` for the roll-up"},
        404: {"description": "no such counter"},
    },
)
def get_counter(
    name: CounterName,
    consistent: Annotated[bool, Query(description="strongly consistent reads (twice the RCU)")] = False,
    source: Annotated[Literal["shards", "rollup"], Query(description="rollup: one item, may lag")] = "shards",
) -> dict[str, Any]:
    return service.read_counter(name, source, consistent).to_json()
