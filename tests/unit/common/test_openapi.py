"""tatami_functions.common.openapi: the document declares what every route answers (found by fuzzing:
132 status codes the document did not declare)."""

from __future__ import annotations

from typing import Any

from tatami_functions.common.openapi import ERROR_SCHEMA_NAME, SIGV4, SIGV4_SCHEME, conventional_responses

POWERTOOLS_422 = {
    "description": "Validation Error",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/HTTPValidationError"}}},
}
ERROR_CONTENT = {"application/json": {"schema": {"$ref": f"#/components/schemas/{ERROR_SCHEMA_NAME}"}}}
# On every operation, GET without parameters included: the gateway answers them before any route.
GATEWAY = ["400", "403", "408", "413", "414", "429", "431", "500", "502", "503", "504"]


def _document(**operations: dict[str, Any]) -> dict[str, Any]:
    return {
        "paths": {f"/{name}": {"put": operation} for name, operation in operations.items()},
        "components": {"schemas": {"HTTPValidationError": {}, "ValidationError": {}}},
    }


def _responses(document: dict[str, Any], name: str) -> dict[str, Any]:
    return dict(conventional_responses(document)["paths"][f"/{name}"]["put"]["responses"])


def test_powertools_422_becomes_our_400_with_the_error_schema() -> None:
    document = _document(q={"parameters": [{"in": "query", "name": "q"}], "responses": {422: POWERTOOLS_422}})
    fixed = conventional_responses(document)
    responses = fixed["paths"]["/q"]["put"]["responses"]
    assert sorted(responses) == sorted(GATEWAY)
    assert responses["400"]["content"] == ERROR_CONTENT
    assert "HTTPValidationError" not in fixed["components"]["schemas"]
    assert fixed["components"]["schemas"][ERROR_SCHEMA_NAME]["required"] == ["message"]


def test_path_parameters_can_be_404_and_bodies_415() -> None:
    operation = {
        "parameters": [{"in": "path", "name": "id"}],
        "requestBody": {"content": {}},
        "responses": {"200": {"description": "ok"}},
    }
    expected = sorted(["200", "404", "415", *GATEWAY])
    assert sorted(_responses(_document(item=operation), "item")) == expected


def test_a_service_own_422_and_descriptions_are_kept_and_get_the_error_shape() -> None:
    operation = {
        "parameters": [{"in": "query", "name": "q"}],
        "responses": {"400": {"description": "mine"}, "422": {"description": "key reused"}},
    }
    responses = _responses(_document(op=operation), "op")
    assert responses["400"]["description"] == "mine"
    assert responses["422"] == {"description": "key reused", "content": ERROR_CONTENT}


def test_a_204_declares_no_content() -> None:
    operation = {"responses": {"204": {"description": "removed", "content": {"application/json": {}}}}}
    assert _responses(_document(gone=operation), "gone")["204"] == {"description": "removed"}


def test_every_operation_declares_api_gateways_own_answers_and_a_503_with_retry_after() -> None:
    responses = _responses(_document(any={"responses": {"200": {"description": "ok"}}}), "any")
    assert sorted(responses) == sorted(["200", *GATEWAY])
    assert all(responses[code]["content"] == ERROR_CONTENT for code in GATEWAY)
    assert responses["503"]["headers"]["Retry-After"]["schema"] == {"type": "integer"}


def test_the_document_requires_sigv4_as_api_gateway_exports_iam_authorization() -> None:
    fixed = conventional_responses(_document(any={"responses": {}}))
    assert fixed["security"] == [{SIGV4_SCHEME: []}]
    assert fixed["components"]["securitySchemes"][SIGV4_SCHEME] == SIGV4
    assert SIGV4["x-amazon-apigateway-authtype"] == "awsSigv4" and SIGV4["name"] == "Authorization"
