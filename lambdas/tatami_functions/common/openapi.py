"""The OpenAPI document says what the API answers: the conventions of `common.api`, on every operation,
and what API Gateway itself answers in front of it.

Powertools documents a 422 for request validation; our resolver answers 400 (`common.api`). The
rest is what every route shares without declaring it: 404 for an id that does not exist (any
operation with a path parameter), 415 for a body that is not JSON (any operation with a body), 503
with `Retry-After` when a dependency fails (`common.dependencies`), and the gateway's own answers,
which any operation may get, GET included: 400 for a request it cannot read (a malformed
Content-Length or chunked body), 403 for a request without a valid SigV4 signature (and for a route
the API lacks), 408 for a request that did not arrive in time, 413 for a body past the limit, 414
for a URL and 431 for headers too long, 429 when the stage throttles, 500 when Lambda refuses the
invocation (an event past 6 MB, the function throttled), 502 when the function fails or times out,
504 past the 29 s integration timeout. One error shape for all of them;
a 204 has no content. Every operation requires SigV4 (API Gateway's IAM authorization).
"""

from __future__ import annotations

import copy
from typing import Any

ERROR_SCHEMA_NAME = "Error"
ERROR_SCHEMA: dict[str, Any] = {
    "title": ERROR_SCHEMA_NAME,
    "type": "object",
    "required": ["message"],
    "properties": {
        "message": {"type": "string", "description": "what is wrong, naming the field"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["field", "in", "message"],
                "properties": {
                    "field": {"type": "string"},
                    "in": {"type": "string", "description": "path, query, header, body or request"},
                    "message": {"type": "string"},
                },
            },
        },
        "may_have_applied": {
            "type": "boolean",
            "description": "a write's 503: whether it may have applied (its answer lost, or part of it done)",
        },
        "retry": {"type": "string", "description": "a write's 503: whether sending it again is safe"},
    },
}
_ERROR_CONTENT = {"application/json": {"schema": {"$ref": f"#/components/schemas/{ERROR_SCHEMA_NAME}"}}}
_POWERTOOLS_422 = "#/components/schemas/HTTPValidationError"
_POWERTOOLS_SCHEMAS = ("HTTPValidationError", "ValidationError")
_SHARED = {
    "400": "a parameter or the body is invalid, or the request cannot be read (the message names the field)",
    "403": (
        "API Gateway: no valid SigV4 signature (Missing Authentication Token), or no such route; "
        "locally also a foreign Host or a write from another web origin"
    ),
    "404": "no such resource",
    "408": "the request did not arrive whole within the gateway's read timeout",
    "413": "the body is over the limit (4 MiB; API Gateway's own is 10 MB)",
    "414": "the URL is longer than the gateway accepts",
    "415": "the body is not JSON (its Content-Type must say application/json)",
    "429": "API Gateway: the stage's rate or burst limit throttled the request",
    "431": "the request's headers are longer or more than the gateway accepts",
    "500": "Lambda refused the invocation (an event past its 6 MB, or the function throttled)",
    "502": "the function failed, timed out or answered in the wrong shape",
    "503": "a dependency (DynamoDB, S3) is throttling, unreachable or too slow: retry after Retry-After",
    "504": "API Gateway: no answer within its 29 s integration timeout",
}
# The gateway answers these before any route is chosen, so every operation may get them.
_EVERY_OPERATION = ("400", "403", "408", "413", "414", "429", "431", "500", "502", "503", "504")
_RETRY_AFTER = {
    "Retry-After": {"description": "seconds to wait before retrying", "schema": {"type": "integer"}}
}
SIGV4_SCHEME = "sigv4"
# How API Gateway exports IAM authorization (an OpenAPI 3 extension of apiKey: the Authorization header).
SIGV4 = {
    "type": "apiKey",
    "name": "Authorization",
    "in": "header",
    "x-amazon-apigateway-authtype": "awsSigv4",
}
_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


def conventional_responses(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of `document` whose operations declare the answers every tatami route gives, and SigV4.

    >>> doc = {"paths": {"/a/{id}": {"get": {"parameters": [{"in": "path", "name": "id"}],
    ...     "responses": {"200": {"description": "ok"}}}}}}
    >>> sorted(conventional_responses(doc)["paths"]["/a/{id}"]["get"]["responses"])
    ['200', '400', '403', '404', '408', '413', '414', '429', '431', '500', '502', '503', '504']
    """
    document = copy.deepcopy(document)
    document["security"] = [{SIGV4_SCHEME: []}]
    for operations in document.get("paths", {}).values():
        for method in _METHODS:
            if method in operations:
                _conventional(operations[method])
    components = document.setdefault("components", {})
    components.setdefault("securitySchemes", {})[SIGV4_SCHEME] = SIGV4
    schemas = components.setdefault("schemas", {})
    schemas[ERROR_SCHEMA_NAME] = ERROR_SCHEMA
    if _POWERTOOLS_422 not in repr(document["paths"]):
        for name in _POWERTOOLS_SCHEMAS:
            schemas.pop(name, None)
    return document


def _conventional(operation: dict[str, Any]) -> None:
    responses = {str(code): response for code, response in operation.get("responses", {}).items()}
    validation = responses.get("422", {}).get("content", {}).get("application/json", {})
    if validation.get("schema", {}).get("$ref") == _POWERTOOLS_422:
        del responses["422"]
    codes = []
    if any(_where(parameter) == "path" for parameter in operation.get("parameters", [])):
        codes.append("404")
    if "requestBody" in operation:
        codes.append("415")
    for code in [*codes, *_EVERY_OPERATION]:
        responses.setdefault(code, {"description": _SHARED[code]})
    responses["503"].setdefault("headers", copy.deepcopy(_RETRY_AFTER))
    for code, response in responses.items():
        if code[0] in "45" and "content" not in response:
            response["content"] = copy.deepcopy(_ERROR_CONTENT)
    responses.get("204", {}).pop("content", None)  # Powertools gives it the return type's schema
    operation["responses"] = dict(sorted(responses.items()))


def _where(parameter: dict[str, Any]) -> str:
    """`in` of a parameter: Powertools' merged document holds its ParameterInType enum, not text."""
    where = parameter.get("in")
    return str(getattr(where, "value", where))
