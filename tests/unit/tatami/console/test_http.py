"""tatami/console/http.py with a stand-in source: files by name only, JSON endpoints, 400s naming the
field, 503 when the source's AWS call fails, 404/405 in the API's error shape."""

from __future__ import annotations

import json
from typing import Any

import pytest
from botocore.exceptions import ClientError, ReadTimeoutError

from tatami.console.http import Console
from tatami.local.gateway.proxy import RequestData


class Source:
    def overview(self) -> dict[str, Any]:
        return {"mode": "test", "name": "stand-in", "api_url": None}

    def tables(self) -> list[dict[str, Any]]:
        return []

    def dynamodb(self) -> Any:
        return None

    def indexed_tables(self) -> dict[str, Any]:
        return {}

    def traffic(self, scale: float) -> dict[str, Any]:
        return {"scale": scale}

    def operations(self) -> dict[str, Any]:
        raise ClientError(
            {"Error": {"Code": "ThrottlingException", "Message": "slow down"}}, "ReceiveMessage"
        )


def ask(
    path: str, method: str = "GET", query: str = "", body: bytes = b"", content_type: str = "application/json"
) -> tuple[int, bytes, dict[str, str]]:
    headers = [("Content-Type", content_type)] if body else []
    request = RequestData(method, path, query, headers, body, "127.0.0.1", "127.0.0.1", "r")
    reply = Console(Source())(request)
    return reply.status, reply.body, dict(reply.headers)


def test_the_page_and_its_modules_are_served_with_their_types() -> None:
    status, body, headers = ask("/console")
    assert (status, headers["Content-Type"]) == (200, "text/html") and b"tatami console" in body
    status, _, headers = ask("/console/static/main.js")
    assert status == 200 and headers["Content-Type"] == "text/javascript"


@pytest.mark.parametrize(
    "path", ["/console/static/../http.py", "/console/static/nope.js", "/console/vendor/x.js"]
)
def test_only_known_files_are_served(path: str) -> None:
    status, body, _ = ask(path)
    assert status == 404 and "no console file" in json.loads(body)["message"]


def test_endpoints_answer_json_and_name_bad_fields() -> None:
    status, body, _ = ask("/console/api/traffic", query="scale=2.5")
    assert (status, json.loads(body)) == (200, {"scale": 2.5})
    status, body, _ = ask("/console/api/traffic", query="scale=lots")
    assert status == 400 and json.loads(body)["errors"][0]["field"] == "scale"
    status, body, _ = ask("/console/api/items", query="table=")
    assert status == 400 and json.loads(body)["errors"][0]["field"] == "table"
    status, body, _ = ask("/console/api/zcells", "POST", body=b"[")
    assert status == 400 and json.loads(body)["errors"][0]["field"] == "body"


def test_a_failing_aws_call_is_a_503_and_unknown_requests_say_so() -> None:
    status, body, headers = ask("/console/api/operations")
    message = json.loads(body)["message"]
    assert status == 503 and "is throttling requests" in message and headers["Retry-After"] == "1"
    assert ask("/console/api/nothing")[0] == 404
    assert ask("/console", "DELETE")[0] == 405


class FrozenSource(Source):
    def traffic(self, scale: float) -> dict[str, Any]:
        raise ReadTimeoutError(endpoint_url="http://127.0.0.1:8123/")


def test_a_dependency_that_does_not_answer_is_a_503_that_names_no_endpoint() -> None:
    """botocore's connection errors carry the internal endpoint; the console's answer does not."""
    request = RequestData("GET", "/console/api/traffic", "", [], b"", "127.0.0.1", "127.0.0.1", "r")
    reply = Console(FrozenSource())(request)
    message = json.loads(reply.body)["message"]
    assert reply.status == 503 and dict(reply.headers)["Retry-After"] == "5"
    assert message == "console traffic: DynamoDB did not answer in time; retry after 5 s"
    assert "127.0.0.1" not in reply.body.decode() and "8123" not in reply.body.decode()


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", ""])
def test_a_body_that_does_not_say_json_is_refused_unread(content_type: str) -> None:
    """A web page's form or text POST never reaches an endpoint (JSON only when it says so)."""
    status, body, _ = ask("/console/api/zcells", "POST", body=b'{"table": "x"}', content_type=content_type)
    assert status == 415 and json.loads(body)["errors"][0]["field"] == "Content-Type"
    status, _, _ = ask("/console/api/zcells", "POST", body=b'{"table": "x"}', content_type="APPLICATION/JSON")
    assert status == 400  # read, and its table named as unknown
