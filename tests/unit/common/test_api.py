"""The conventions every route shares (lambdas/tatami_functions/common/api.py), on a resolver of their own."""

from __future__ import annotations

import base64
import json
from typing import Annotated, Any

import pytest
from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.openapi.params import Body
from pydantic import BaseModel, ConfigDict

from tatami_functions.common.api import MAX_ERRORS, create_resolver
from tatami_functions.common.request_limits import MAX_BODY_BYTES
from tests.support.lambda_runtime import FakeContext, api_event, resolve, status_and_body


class Greeting(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str


app = create_resolver()


@app.post("/greetings")
def greet(greeting: Annotated[Greeting, Body()]) -> dict[str, Any]:
    return {"hello": greeting.name}


def _post(body: str, content_type: str | None) -> tuple[int, dict[str, Any]]:
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = app.resolve(api_event("POST", "/greetings", body=body, headers=headers), FakeContext())
    return response["statusCode"], json.loads(response["body"])


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "APPLICATION/JSON",
        "Application/Json; charset=UTF-8",
        "application/merge-patch+json",
    ],
    ids=str,
)
def test_json_bodies_are_read_when_their_content_type_says_json_in_any_case(content_type: str) -> None:
    assert _post('{"name": "tatami"}', content_type) == (200, {"hello": "tatami"})


@pytest.mark.parametrize(
    "content_type",
    ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=b", None],
)
def test_a_json_body_that_does_not_say_so_is_refused_unread(content_type: str | None) -> None:
    """What a web page may send anywhere without a preflight (a form, text, a typeless Blob) is
    never read as a request: a cross-site page cannot place an order on a local cloud."""
    status, body = _post('{"name": "tatami"}', content_type)
    assert status == 415
    assert body["errors"] == [{"field": "Content-Type", "in": "header", "message": body["message"]}]


def test_a_form_body_is_refused_as_unsupported_media_not_read_as_fields() -> None:
    status, body = _post("name=tatami", "application/x-www-form-urlencoded")
    assert status == 415
    assert [(error["field"], error["in"]) for error in body["errors"]] == [("Content-Type", "header")]
    assert "application/x-www-form-urlencoded is not supported" in body["message"]


def test_a_missing_body_without_a_content_type_is_a_400_naming_the_body() -> None:
    status, body = _post("", None)
    assert status == 400
    assert [error["in"] for error in body["errors"]] == ["body"]


def test_other_content_types_are_refused_as_unsupported_media() -> None:
    status, body = _post('{"name": "tatami"}', "text/plain")
    assert status == 415
    assert body["errors"] == [
        {"field": "Content-Type", "in": "header", "message": body["message"]},
    ]
    assert "text/plain" in body["message"]


def test_unknown_routes_are_404_json() -> None:
    response = app.resolve(api_event("GET", "/nowhere"), FakeContext())
    assert response["statusCode"] == 404
    assert json.loads(response["body"]) == {"message": "no route for GET /nowhere"}


def test_a_body_that_is_not_utf8_is_a_400_naming_the_body_not_a_crash() -> None:
    """Found by fuzzing: a binary body escaped validation as UnicodeDecodeError (API Gateway: 502)."""
    event = api_event("POST", "/greetings", body=base64.b64encode(b'{"name": "\xff\xfe"}').decode())
    event["isBase64Encoded"] = True
    status, body = status_and_body(app.resolve(event, FakeContext()))
    assert status == 400
    assert body["errors"] == [{"field": "body", "in": "body", "message": "is not UTF-8 (JSON must be)"}]


def test_a_multipart_form_is_refused_as_unsupported_media() -> None:
    """Found by fuzzing: Powertools read a multipart form as fields; no tatami route takes a form."""
    form = '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\ntatami\r\n--b--\r\n'
    status, body = _post(form, "multipart/form-data; boundary=b")
    assert status == 415
    assert body["errors"][0]["field"] == "Content-Type"


@app.get("/pages")
def pages(limit: int = 1) -> dict[str, Any]:
    if limit > 5:
        raise BadRequestError(f"limit: {limit} is more than the 5 a page holds")
    raise BadRequestError("give something to look for")


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("[" * 1000 + "]" * 1000, "nested deeper than 32 levels"),
        ('{"name": ' + "9" * 5000 + "}", "holds a number longer than 100"),
        (json.dumps({f"k{n}": n for n in range(20_000)}), "holds more than 10000 members"),
    ],
    ids=["1000 deep", "5000 digits", "20000 members"],
)
def test_a_body_past_a_limit_is_a_400_naming_the_body_before_anything_parses_it(
    body: str, reason: str
) -> None:
    assert _post(body, "application/json") == (
        400,
        {"message": f"body: {reason}", "errors": [{"field": "body", "in": "body", "message": reason}]},
    )


def test_a_body_past_the_size_limit_is_a_413_naming_the_body() -> None:
    status, body = _post(json.dumps({"name": "x" * (MAX_BODY_BYTES + 1)}), "application/json")
    assert status == 413 and body["errors"][0]["field"] == "body"


def test_a_query_parameter_past_its_limit_is_a_400_naming_it() -> None:
    event = api_event("GET", "/pages", query={"next": "x" * 9000})
    response = app.resolve(event, FakeContext())
    assert response["statusCode"] == 400
    assert json.loads(response["body"])["errors"] == [
        {"field": "next", "in": "query", "message": "longer than 8192 characters"}
    ]


def test_a_wide_body_lists_its_first_errors_not_thousands() -> None:
    status, body = _post(
        json.dumps({f"extra{n}": n for n in range(5000)} | {"name": "x"}), "application/json"
    )
    assert status == 400 and len(body["errors"]) == MAX_ERRORS
    assert body["message"].endswith(f"; and {5000 - MAX_ERRORS} more")


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ({"limit": "9"}, {"field": "limit", "in": "query", "message": "9 is more than the 5 a page holds"}),
        ({}, {"field": "request", "in": "request", "message": "give something to look for"}),
    ],
)
def test_every_bad_request_error_has_the_errors_array(query: dict[str, str], error: dict[str, str]) -> None:
    response = app.resolve(api_event("GET", "/pages", query=query), FakeContext())
    assert response["statusCode"] == 400
    assert json.loads(response["body"]) == {
        "message": f"{error['field']}: {error['message']}",
        "errors": [error],
    }


def test_a_service_error_is_answered_with_its_status_and_field() -> None:
    from tatami_functions.common.errors import ConflictError, ItemNotFoundError

    class GoneError(ItemNotFoundError):
        pass

    class TakenError(ConflictError):
        pass

    app = create_resolver("test")

    @app.get("/gone")
    def gone() -> dict[str, str]:
        raise GoneError("no thing t-1")

    @app.get("/taken")
    def taken() -> dict[str, str]:
        raise TakenError("report_id: cannot be used; choose another report_id")

    status, body = resolve(app, "GET", "/gone")
    assert (status, body) == (404, {"message": "no thing t-1"})
    status, body = resolve(app, "GET", "/taken")
    assert status == 409
    assert body["errors"] == [
        {"field": "report_id", "in": "body", "message": "cannot be used; choose another report_id"}
    ]
