"""The HTTP conventions of every tatami route.

JSON in and out; 400 with a message naming the field for bad input (Powertools answers 422 by
default, our contract says 400), including bodies that are not UTF-8 JSON and requests past the
limits of `request_limits.py` (checked before anything is parsed; 413 for a body too large); every
400 has the `errors` array, Powertools' BadRequestError included; 415 for a body whose Content-Type
does not say JSON (forms included: a web page can POST a form anywhere without asking, so a form
must never be read as a request); 404 JSON for unknown routes and ids; 503 with Retry-After when a
dependency fails (`dependencies.py`); a crash is left to Lambda, so API Gateway answers 502 and the
request id is in the log. `openapi.py` beside this module makes the OpenAPI document say the same.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from http import HTTPStatus
from re import Match
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response, content_types
from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.middlewares.openapi_validation import (
    OpenAPIRequestValidationMiddleware,
)
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
)
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from tatami_functions.common import writes
from tatami_functions.common.clients import answer_by
from tatami_functions.common.dependencies import answer_dependency_failures
from tatami_functions.common.errors import TatamiError
from tatami_functions.common.observability import logger
from tatami_functions.common.request_limits import BodyTooLargeError, LimitExceededError, check_request
from tatami_functions.common.text import nfc, normalised_event, path_value

# `responses=` of routes answering other than 200 (Powertools documents 200 unless told otherwise).
CREATED: dict[int, OpenAPIResponse] = {201: {"description": "created"}}
CREATED_OR_REPLACED: dict[int, OpenAPIResponse] = {200: {"description": "replaced"}, **CREATED}
NO_CONTENT: dict[int, OpenAPIResponse] = {204: {"description": "removed"}}
CHANGED_MEANWHILE: dict[int, OpenAPIResponse] = {
    409: {"description": "changed by another request meanwhile; retry"}
}
MAX_ERRORS = 20  # listed in one 400 (pydantic reports one per bad member: a wide body means thousands)


def is_json(content_type: str | None) -> bool:
    """Whether a Content-Type says JSON: `application/json` or an `application/...+json` type, its
    parameters aside, in any case (media types are case-insensitive: RFC 9110, 8.3.1).

    >>> is_json("APPLICATION/JSON; charset=UTF-8"), is_json("application/merge-patch+json")
    (True, True)
    >>> is_json("application/x-www-form-urlencoded"), is_json("text/plain"), is_json(None)
    (False, False, False)
    """
    media_type = (content_type or "").split(";", 1)[0].strip().lower()
    return media_type == "application/json" or (
        media_type.startswith("application/") and media_type.endswith("+json")
    )


class _JsonBodies(OpenAPIRequestValidationMiddleware):
    """Powertools' request validation, reading a body as UTF-8 JSON when its Content-Type says JSON.

    Powertools would read a form (url-encoded or multipart) into fields and a body without a
    Content-Type as JSON, and it matches `application/json` case-sensitively (`APPLICATION/JSON` was
    a 415). Here a body is JSON only when it says so, in any case: anything else is a 415, so a web
    page's form or no-cors `fetch` (which cannot send `application/json` without a preflight) never
    reaches a route. A body that is not UTF-8 is a 400 naming the body (Powertools' UnicodeDecodeError
    would crash the function: a 502). Before any of it, the request is held to `request_limits`.

    Private hooks, on purpose: Powertools runs request validation before any public middleware
    (`app.use`), so this must replace its body reading. Pinned to the Powertools version they were
    checked against: tests/unit/lambdas/common/test_powertools_private_hooks.py.
    """

    def handler(self, app: Any, next_middleware: Any) -> Any:
        check_request(app.current_event.raw_event)
        return super().handler(app, next_middleware)

    def _get_body(self, app: Any) -> dict[str, Any]:
        event = app.current_event
        content_type = event.headers.get("content-type")
        if not is_json(content_type) and (content_type or event.body):  # no body, no type: "missing"
            raise RequestUnsupportedContentType("Unsupported content type", errors=[])
        try:
            body: dict[str, Any] = nfc(self._parse_json_data(app))  # text arrives NFC (common.text)
        except UnicodeDecodeError:
            raise RequestValidationError(
                [
                    {
                        "type": "unicode_invalid",
                        "loc": ("body",),
                        "msg": "is not UTF-8 (JSON must be)",
                        "input": {},
                    }
                ]
            ) from None
        return body


class JsonResolver(APIGatewayRestResolver):
    """A REST resolver over events as the functions read them (`common.text`): the path still encoded
    for routing, each path parameter decoded once after it, queries NFC."""

    def resolve(self, event: Mapping[str, Any], context: Any) -> dict[str, Any]:
        writes.begin_request()  # what this request's 503 says it may have applied (common.writes)
        # Every AWS call of the request gives up in time to answer (`common.clients.within_deadline`).
        answer_by(context.get_remaining_time_in_millis() if context is not None else None)
        try:
            return self._resolve_normalised(event, context)
        finally:
            answer_by(None)

    def _resolve_normalised(self, event: Mapping[str, Any], context: Any) -> dict[str, Any]:
        return super().resolve(normalised_event(event), context)

    def _convert_matches_into_route_keys(self, match: Match[str]) -> dict[str, str]:
        # Routes match the encoded path; each id is decoded once, after routing, and made NFC: here,
        # before request validation reads the keys (a private hook: test_powertools_private_hooks.py).
        return {name: path_value(value) for name, value in match.groupdict().items()}


def create_resolver(service: str | None = None) -> APIGatewayRestResolver:
    """A REST resolver with request validation and tatami's error shapes; `service` names the service
    in its 503 answers (default: the function's service, as its Logger has it).

    >>> app = create_resolver("places")
    >>> @app.get("/ping")
    ... def ping() -> dict[str, str]:
    ...     return {"pong": "yes"}
    """
    app = JsonResolver(enable_validation=True)
    # No public option installs a request validation middleware: the route stack reads this attribute.
    app._request_validation_middleware = _JsonBodies()  # type: ignore[no-untyped-call]

    @app.exception_handler(RequestValidationError)
    def _invalid_request(exc: RequestValidationError) -> Response[Any]:
        return bad_request([describe_error(error) for error in exc.errors()])

    @app.exception_handler(BadRequestError)
    def _bad_request(exc: BadRequestError) -> Response[Any]:
        field, _, reason = str(exc.msg).partition(": ")
        if not reason:  # no field named: the request as a whole
            field, reason = "request", field
        where = _where(app.current_event.raw_event, field)
        return bad_request([{"field": field, "in": where, "message": reason}])

    @app.exception_handler(LimitExceededError)
    def _past_a_limit(exc: LimitExceededError) -> Response[Any]:
        status = HTTPStatus.REQUEST_ENTITY_TOO_LARGE if isinstance(exc, BodyTooLargeError) else None
        return bad_request([{"field": exc.field, "in": exc.where, "message": exc.reason}], status)

    @app.exception_handler(RequestUnsupportedContentType)
    def _unsupported_body(_exc: RequestUnsupportedContentType) -> Response[Any]:
        content_type = app.current_event.headers.get("content-type")
        said = f"Content-Type {content_type} is not supported" if content_type else "say so in Content-Type"
        message = f"request bodies are JSON (application/json): {said}"
        errors = [{"field": "Content-Type", "in": "header", "message": message}]
        return json_response(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, {"message": message, "errors": errors})

    @app.not_found
    def _no_route(_exc: Exception) -> Response[Any]:
        event = app.current_event
        return json_response(
            HTTPStatus.NOT_FOUND, {"message": f"no route for {event.http_method} {event.path}"}
        )

    @app.exception_handler(TatamiError)
    def _service_error(exc: TatamiError) -> Response[Any]:
        response = _answer(app, exc.status, "{exc}")(exc)
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    answer_dependency_failures(app, service)
    return app


def bad_request(errors: list[dict[str, str]], status: HTTPStatus | None = None) -> Response[Any]:
    """A 400 (or `status`) listing `errors` (`{"field", "in", "message"}`), the message naming each.

    >>> bad_request([{"field": "limit", "in": "query", "message": "too big"}]).body["message"]
    'limit: too big'
    """
    logger.info("rejected request", extra={"errors": errors[:MAX_ERRORS]})
    listed = errors[:MAX_ERRORS]
    message = "; ".join(f"{e['field']}: {e['message']}" for e in listed)
    if len(errors) > MAX_ERRORS:
        message += f"; and {len(errors) - MAX_ERRORS} more"
    return json_response(status or HTTPStatus.BAD_REQUEST, {"message": message, "errors": listed})


def _where(event: Mapping[str, Any], field: str) -> str:
    """Where the request holds `field`: path, query or header, else the body ("request": no field)."""
    if field == "request":
        return field
    for where, key in (("path", "pathParameters"), ("query", "queryStringParameters")):
        if field in (event.get(key) or {}):
            return where
    headers = {name.lower() for name in event.get("headers") or {}}
    return "header" if field.lower() in headers else "body"


def describe_error(error: dict[str, Any]) -> dict[str, str]:
    """Turn one pydantic error into `{"field", "in", "message"}` with the field named plainly.

    >>> describe_error({"loc": ("query", "latitude_min"), "msg": "Input should be a valid number"})
    {'field': 'latitude_min', 'in': 'query', 'message': 'Input should be a valid number'}
    """
    location: Sequence[Any] = error.get("loc", ())
    source = str(location[0]) if location else "request"
    names = [str(part) for part in location[1:] if isinstance(part, str)]
    if error.get("type") == "json_invalid":
        return {"field": "body", "in": "body", "message": "is not valid JSON"}
    field = ".".join(names) or source
    return {"field": field, "in": source, "message": str(error.get("msg", "is invalid"))}


def json_response(status: int, body: Any, headers: Mapping[str, str] | None = None) -> Response[Any]:
    return Response(
        status_code=int(status),
        content_type=content_types.APPLICATION_JSON,
        body=body,
        headers=dict(headers or {}),
    )


ErrorAnswer = tuple[HTTPStatus, str]  # the status, and the message (`{exc}` stands for the error's text)


def answer_errors(app: APIGatewayRestResolver, answers: Mapping[type[Exception], ErrorAnswer]) -> None:
    """Answer each of a service's errors with its status and a JSON `message`.

    >>> app = create_resolver()
    >>> answer_errors(app, {LookupError: (HTTPStatus.NOT_FOUND, "no such thing: {exc}")})
    >>> answer = app.exception_handler_manager.lookup_exception_handler(LookupError)(LookupError("x"))
    >>> answer.status_code, answer.body
    (404, {'message': 'no such thing: x'})
    """
    for error, (status, message) in answers.items():
        app.exception_handler(error)(_answer(app, status, message))


def _answer(
    app: APIGatewayRestResolver, status: HTTPStatus, message: str
) -> Callable[[Exception], Response[Any]]:
    """The answer; a message "<field>: <reason>" also lists the field in `errors`, as a 400 does."""

    def answer(exc: Exception) -> Response[Any]:
        text = message.format(exc=exc)
        field, named, reason = text.partition(": ")
        if not (named and field.isidentifier()):
            return json_response(status, {"message": text})
        error = {"field": field, "in": _where(app.current_event.raw_event, field), "message": reason}
        return json_response(status, {"message": text, "errors": [error]})

    return answer
