"""tatami/local/gateway/proxy.py: the proxy event a function receives and the reply API Gateway sends."""

import base64
import json

from tatami.local.functions.pool import Invocation
from tatami.local.gateway.proxy import LAMBDA_RESPONSE_BYTES, RequestData, proxy_event, proxy_reply
from tatami.local.gateway.routes import Route


def request(body: bytes = b"", query: str = "") -> RequestData:
    return RequestData(
        method="GET",
        path="/places/東京",
        query=query,
        body=body,
        client_ip="127.0.0.1",
        host="127.0.0.1:3000",
        request_id="rid",
        headers=[("Accept", "a"), ("X-Multi", "1"), ("X-Multi", "2")],
    )


def test_proxy_event_has_the_rest_v1_shape() -> None:
    event = proxy_event(
        Route("GET", "/places/{id}", "Fn"),
        {"id": "東京"},
        request(query="a=1&a=2&b=&c=%E5%8D%83"),
        stage="v1",
    )
    assert event["resource"] == "/places/{id}"
    assert event["pathParameters"] == {"id": "東京"}
    assert event["queryStringParameters"] == {"a": "2", "b": "", "c": "千"}
    assert event["multiValueQueryStringParameters"]["a"] == ["1", "2"]
    assert event["headers"]["X-Multi"] == "2"
    assert event["multiValueHeaders"]["X-Multi"] == ["1", "2"]
    assert event["requestContext"]["stage"] == "v1"
    assert event["requestContext"]["path"] == "/v1/places/東京"
    assert event["requestContext"]["requestId"] == "rid"
    assert event["body"] is None and event["isBase64Encoded"] is False


def test_binary_body_is_base64_encoded() -> None:
    event = proxy_event(Route("POST", "/x", "Fn"), {}, request(body=b"\xff\x00"), stage="v1")
    assert event["isBase64Encoded"] is True
    assert base64.b64decode(event["body"]) == b"\xff\x00"


def test_reply_maps_status_headers_and_base64_body() -> None:
    result = {
        "statusCode": 201,
        "headers": {"X-A": "1"},
        "multiValueHeaders": {"Set-Cookie": ["a", "b"]},
        "body": base64.b64encode(b"\x01").decode(),
        "isBase64Encoded": True,
    }
    reply = proxy_reply(Invocation("id", True, result=result))
    assert reply.status == 201
    assert reply.body == b"\x01"
    assert ("Set-Cookie", "b") in reply.headers and ("X-A", "1") in reply.headers
    assert ("Content-Type", "application/json") in reply.headers


def test_a_function_error_its_timeout_a_malformed_or_oversized_response_are_502s() -> None:
    """As Lambda documents it: a function that runs but fails or answers wrongly is API Gateway's 502."""
    internal = {"message": "Internal server error"}
    crashed = proxy_reply(Invocation("id", False, error={"errorType": "ValueError"}))
    assert (crashed.status, json.loads(crashed.body)) == (502, internal)
    assert proxy_reply(Invocation("id", True, result={"not": "proxy"})).status == 502
    assert proxy_reply(Invocation("id", True, result="text")).status == 502
    timed_out = proxy_reply(Invocation("id", False, error={"errorType": "Sandbox.Timedout"}))
    assert (timed_out.status, json.loads(timed_out.body)) == (502, internal)
    oversized = {"statusCode": 200, "body": "x" * LAMBDA_RESPONSE_BYTES}
    assert proxy_reply(Invocation("id", True, result=oversized)).status == 502
    just_fits = {"statusCode": 200, "body": "x" * (LAMBDA_RESPONSE_BYTES - 100)}
    assert proxy_reply(Invocation("id", True, result=just_fits)).status == 200
