"""The conventions every route shares (lambdas/common/api.py), on a resolver of their own."""

from __future__ import annotations

import json
from typing import Annotated, Any

import pytest
from aws_lambda_powertools.event_handler.openapi.params import Body
from pydantic import BaseModel

from common.api import create_resolver
from tests.support.lambda_runtime import FakeContext, api_event


class Greeting(BaseModel):
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
    "content_type", ["application/json", "application/x-www-form-urlencoded", None], ids=str
)
def test_json_bodies_are_read_whatever_curl_says_they_are(content_type: str | None) -> None:
    assert _post('{"name": "tatami"}', content_type) == (200, {"hello": "tatami"})


def test_a_form_body_is_a_400_naming_the_body_not_a_field_salad() -> None:
    status, body = _post("name=tatami", "application/x-www-form-urlencoded")
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
