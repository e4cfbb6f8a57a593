"""tatami_functions.common.request_limits: what a request may hold, measured without parsing it."""

from __future__ import annotations

import doctest
import json
import time

import pytest

from tatami_functions.common import request_limits
from tatami_functions.common.request_limits import (
    MAX_BODY_BYTES,
    MAX_DEPTH,
    MAX_MEMBERS,
    BodyTooLargeError,
    LimitExceededError,
    check_body,
    check_request,
)


@pytest.mark.parametrize(
    "body",
    [
        json.dumps({"text": "[[[{{{" * 1000 + "," * 20_000 + "9" * 500}),  # structure inside a string
        "[" * MAX_DEPTH + "]" * MAX_DEPTH,
        json.dumps(list(range(MAX_MEMBERS))),
        json.dumps({"escaped": 'a \\" [[[ "' * 100}),
        "{not json, [[[",  # unbalanced and invalid: the parser says so, not the limits
        "",
    ],
    ids=["strings", "deepest allowed", "widest allowed", "escaped quotes", "invalid", "empty"],
)
def test_bodies_within_the_limits_pass(body: str) -> None:
    check_body(body)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nested deeper than 32 levels"),
        ('{"a": ' * 1000 + "1" + "}" * 1000, "nested deeper than 32 levels"),
        (json.dumps(list(range(MAX_MEMBERS + 1))), "holds more than 10000 members"),
        ("[" + "[]," * MAX_MEMBERS + "[]]", "holds more than 10000 members"),
        (json.dumps({"by": 1.5e300}).replace("1.5e+300", "1" + "0" * 300), "holds a number longer than 100"),
    ],
    ids=["deep lists", "deep objects", "wide list", "many empty lists", "long number"],
)
def test_bodies_past_a_limit_name_the_body(body: str, reason: str) -> None:
    with pytest.raises(LimitExceededError) as raised:
        check_body(body)
    assert (raised.value.field, raised.value.where, raised.value.reason) == ("body", "body", reason)


def test_a_body_too_large_is_its_own_error_and_is_measured_in_utf8_bytes() -> None:
    with pytest.raises(BodyTooLargeError):
        check_body(json.dumps({"name": "東" * (MAX_BODY_BYTES // 3)}, ensure_ascii=False))


def test_the_largest_body_is_measured_in_well_under_a_second() -> None:
    # The slow path: commas and brackets everywhere, strings to blank out between them.
    for hostile in ("[" + "[]," * (MAX_BODY_BYTES // 3 - 2) + "[]]", json.dumps(["[,9" * 15] * 80_000)):
        started = time.perf_counter()
        with pytest.raises(LimitExceededError):
            check_body(hostile)
        assert time.perf_counter() - started < 1.0


def test_headers_and_query_parameters_are_counted_and_measured() -> None:
    check_request({"multiValueHeaders": {"Authorization": ["AWS4-HMAC-SHA256 ..."]}})
    with pytest.raises(LimitExceededError, match=r"^X-Big: longer than 8192 characters$"):
        check_request({"multiValueHeaders": {"X-Big": ["a" * 8193]}})
    with pytest.raises(LimitExceededError, match=r"more than 128 headers$"):
        check_request({"multiValueHeaders": {f"X-H{n}": ["1"] for n in range(129)}})
    with pytest.raises(LimitExceededError) as raised:
        check_request({"multiValueQueryStringParameters": {"q" * 300: ["1"]}})
    assert raised.value.where == "query" and raised.value.reason == "name longer than 256"


def test_a_base64_body_is_left_to_the_function_that_refuses_it() -> None:
    check_request({"body": "W1tb" * 100, "isBase64Encoded": True})


def test_examples() -> None:
    assert doctest.testmod(request_limits, optionflags=doctest.ELLIPSIS).failed == 0
