"""Routes of the counters service (merged into the API's OpenAPI document by docs.api).

`PUT /counters/{name}` creates a counter sized by the seed's formula (or grows it),
`POST /counters/{name}/increments` adds to it (once per `Idempotency-Key`), `GET /counters/{name}`
reads it: the exact sum of its shards, or `?source=rollup` for the stream-maintained total.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.openapi.params import Body, Header, Path, Query
from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator

from tatami_functions.common.api import answer_errors, create_resolver, json_response
from tatami_functions.counters.configs import create_or_grow, plan
from tatami_functions.counters.exceptions import (
    CounterNotFoundError,
    KeyInProgressError,
    KeyReusedError,
    ShardShrinkError,
    TooManyShardsError,
)
from tatami_functions.counters.increments import increment
from tatami_functions.counters.reads import read_counter
from tatami_functions.counters.sharding import MAX_INCREMENT, NAME_PATTERN

app = create_resolver()

CounterName = Annotated[
    str, Path(pattern=NAME_PATTERN, description="1-64 of A-Z a-z 0-9 _ . -, starting with a letter or digit")
]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=255,
        pattern=r"^[\x21-\x7e]+$",
        description="A client-chosen key (e.g. a UUID): a retried request with the same key counts once",
    ),
]


class CounterSpec(BaseModel):
    """How much write traffic the counter must absorb; omitted fields take the deployment's defaults."""

    model_config = ConfigDict(extra="forbid")
    target_wcu: StrictInt | None = Field(default=None, ge=1, le=10_000_000)
    safety_factor: float | None = Field(default=None, ge=1, le=4, description="the seed suggests 1.5-2")


class IncrementBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    by: StrictInt = Field(ge=-MAX_INCREMENT, le=MAX_INCREMENT, description="non-zero; negative decrements")

    @field_validator("by")
    @classmethod
    def _not_zero(cls, value: int) -> int:
        if value == 0:
            raise ValueError("must not be 0 (a zero increment would still cost a write)")
        return value


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
    config, outcome = create_or_grow(plan(name, spec.target_wcu, spec.safety_factor), keep_existing=not sized)
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
    result = increment(name, body.by, idempotency_key, caller)
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
    return read_counter(name, source, consistent).to_json()


answer_errors(
    app,
    {
        CounterNotFoundError: (HTTPStatus.NOT_FOUND, "{exc}"),
        ShardShrinkError: (HTTPStatus.CONFLICT, "target_wcu: {exc}"),
        # As the IETF Idempotency-Key draft: a key reused with a different payload is 422.
        KeyReusedError: (
            HTTPStatus.UNPROCESSABLE_ENTITY,
            "Idempotency-Key: already used for a different `by` on this counter; use a new key",
        ),
    },
)


@app.exception_handler(TooManyShardsError)
def _too_many_shards(exc: TooManyShardsError) -> Response[Any]:
    error = {"field": "target_wcu", "in": "body", "message": str(exc)}
    return json_response(HTTPStatus.BAD_REQUEST, {"message": f"target_wcu: {exc}", "errors": [error]})


@app.exception_handler(KeyInProgressError)
def _in_progress(_exc: KeyInProgressError) -> Response[Any]:
    message = "Idempotency-Key: a request with this key is being committed right now; retry shortly"
    return _retry_later(HTTPStatus.CONFLICT, message)


def _retry_later(status: HTTPStatus, message: str) -> Response[Any]:
    return Response(
        status, content_types.APPLICATION_JSON, {"message": message}, headers={"Retry-After": "1"}
    )
