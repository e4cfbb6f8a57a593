"""Hostile input on every route family of the app's local cloud: nested, oversized and malformed
bodies, query strings, headers and path ids (found by probing: a 2 KB body nested 1,000 deep was a 502
on every body route, a 5,000-digit number too, and a 100,000-member body an 11 MB answer).

Invariant: no answer is a 5xx; a body past a limit is a 400 or 413 whose errors name the body.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import requests

from tatami.local.cloud import LocalCloud
from tests.support.route_families import FAMILIES, Call

BODY_LIMITS: dict[str, Any] = {  # refused before parsing (common/request_limits.py)
    "1,000 deep list": "[" * 1000 + "]" * 1000,
    "1,000 deep object": '{"a": ' * 1000 + "1" + "}" * 1000,
    "5,000-digit number": '{"by": ' + "9" * 5000 + "}",
    "20,000 members": json.dumps({f"k{n}": n for n in range(20_000)}),
    "5 MB string": json.dumps({"name": "x" * 5_000_000}),
}
MALFORMED_BODIES: dict[str, Any] = {
    "invalid JSON": "{not json",
    "not UTF-8": b"\xff\xfe\x00\x01",
    "null": "null",
    "a list": "[]",
    "a string": '"x"',
    "NaN": '{"a": NaN}',
    "1e400": '{"by": 1e400}',
    "duplicate keys": '{"a": 1, "a": 2}',
    "a byte-order mark": "\ufeff{}".encode(),
    "a lone surrogate": '{"name": "\\ud800"}',
    "empty": "",
}
QUERIES: dict[str, str] = {
    "a 9,000-character value": "next=" + "A" * 9000,
    "100 parameters": "&".join(f"p{n}=1" for n in range(100)),
    "bad percent escapes": "limit=%zz&next=%ff",
    "NUL": "next=%00&limit=%00",
    "a 5,000-digit limit": "limit=" + "9" * 5000,
}
HEADERS: dict[str, dict[str, Any]] = {
    "a 9,000-character header": {"X-Big": "a" * 9000},
    "150 headers": {f"X-H{n}": "1" for n in range(150)},
    "a control character in Idempotency-Key": {"Idempotency-Key": "a\x01b"},
    "a Latin-1 header": {"X-Latin": "é".encode("latin-1")},
    "a UTF-16 body type": {"Content-Type": "application/json; charset=utf-16"},
}
PATH_IDS = ["x" * 3000, "%00", "%ff", "%F0%9F%98%80", "a%2Fb", "..", "%20"]


def _attacks(call: Call, first: bool) -> list[tuple[str, dict[str, Any]]]:
    """Every attack on a family's first call; the query attacks on the others (the body and the
    headers reach the same code as the first call's)."""
    attacks: list[tuple[str, dict[str, Any]]] = [
        (f"query: {name}", {"query": q}) for name, q in QUERIES.items()
    ]
    if not first:
        return attacks
    if call.body is not None:
        for name, body in {**BODY_LIMITS, **MALFORMED_BODIES}.items():
            attacks.append((f"body: {name}", {"data": body, "headers": {"Content-Type": "application/json"}}))
    attacks += [(f"header: {name}", {"headers": {**call.headers, **h}}) for name, h in HEADERS.items()]
    return attacks


def _at_path(api: str, call: Call, segment: str) -> requests.Response:
    """`call` with its last path segment replaced."""
    path = call.path.rsplit("/", 1)[0] + "/" + segment
    return requests.request(call.method, f"{api}{path}", json=call.body, timeout=120)


@pytest.mark.parametrize("family", FAMILIES)
def test_no_hostile_input_gets_a_5xx(app_cloud: LocalCloud, family: str) -> None:
    api, answers = app_cloud.api_url, []
    for n, call in enumerate(FAMILIES[family]):
        for name, changes in _attacks(call, first=n == 0):
            if "query" in changes:  # sent as written, not encoded by requests
                query = changes["query"]
                response = requests.request(
                    call.method, f"{api}{call.path}?{query}", json=call.body, timeout=120
                )
            else:
                response = call.send(api, timeout=120, **changes)
            answers.append((f"{call.method} {call.path} {name}", response))
        if n > 0:
            continue
        answers += [
            (f"{call.method} {call.path} path {segment[:12]}", _at_path(api, call, segment))
            for segment in PATH_IDS
        ]
    server_errors = [(name, r.status_code, r.text[:200]) for name, r in answers if r.status_code >= 500]
    assert server_errors == []
    for name, response in answers:
        if name.split(" body: ")[-1] in BODY_LIMITS:
            assert response.status_code in (400, 413), (name, response.status_code)
            assert response.json()["errors"][0]["field"] == "body", name
