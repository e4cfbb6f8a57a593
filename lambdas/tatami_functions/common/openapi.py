"""The OpenAPI document says what the API answers: the conventions of `common.api`, on every operation.

Powertools documents a 422 for request validation; our resolver answers 400 (`common.api`). The
rest is what every route shares without declaring it: 404 for an id that does not exist (any
operation with a path parameter), 413 from API Gateway for a body over 10 MB and 415 for a body that
is not JSON (any operation with a body), 414 for a URL too long for the gateway (any operation), and
one error shape for all of them. A 204 has no content.
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
                    "in": {"type": "string", "description": "path, query, header or body"},
                    "message": {"type": "string"},
                },
            },
        },
    },
}
_ERROR_CONTENT = {"application/json": {"schema": {"$ref": f"#/components/schemas/{ERROR_SCHEMA_NAME}"}}}
_POWERTOOLS_422 = "#/components/schemas/HTTPValidationError"
_POWERTOOLS_SCHEMAS = ("HTTPValidationError", "ValidationError")
_SHARED = {
    "400": "a parameter or the body is invalid (the message names the field)",
    "404": "no such resource",
    "413": "the body is over API Gateway's 10 MB",
    "414": "the URL is longer than the gateway accepts",
    "415": "the body is not JSON",
}
_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


def conventional_responses(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of `document` whose operations declare the answers every tatami route gives.

    >>> doc = {"paths": {"/a/{id}": {"get": {"parameters": [{"in": "path", "name": "id"}],
    ...     "responses": {"200": {"description": "ok"}}}}}}
    >>> sorted(conventional_responses(doc)["paths"]["/a/{id}"]["get"]["responses"])
    ['200', '400', '404', '414']
    """
    document = copy.deepcopy(document)
    for operations in document.get("paths", {}).values():
        for method in _METHODS:
            if method in operations:
                _conventional(operations[method])
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
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
    if operation.get("parameters") or "requestBody" in operation:
        codes.append("400")
    if any(_where(parameter) == "path" for parameter in operation.get("parameters", [])):
        codes.append("404")
    if "requestBody" in operation:
        codes += ["413", "415"]
    for code in [*codes, "414"]:
        responses.setdefault(code, {"description": _SHARED[code]})
    for code, response in responses.items():
        if code.startswith("4") and "content" not in response:
            response["content"] = copy.deepcopy(_ERROR_CONTENT)
    responses.get("204", {}).pop("content", None)  # Powertools gives it the return type's schema
    operation["responses"] = dict(sorted(responses.items()))


def _where(parameter: dict[str, Any]) -> str:
    """`in` of a parameter: Powertools' merged document holds its ParameterInType enum, not text."""
    where = parameter.get("in")
    return str(getattr(where, "value", where))
