"""ApiGateway.mount: a page served beside the API's routes, on its own prefix only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tatami.local.functions.pool import Invocation
from tatami.local.gateway.proxy import Reply, RequestData
from tatami.local.gateway.routes import Route, RouteTable
from tatami.local.gateway.server import ApiGateway


def _function(_function: str, _event: dict[str, Any], _timeout: float) -> Invocation:
    return Invocation("rid", True, result={"statusCode": 200, "body": '{"from": "function"}'})


@pytest.fixture(scope="module")
def gateway() -> Iterator[ApiGateway]:
    api = ApiGateway(RouteTable([Route("GET", "/{proxy+}", "Fn")]), _function, lambda _line: None, 0, "v1")
    api.mount("/console/", lambda request: Reply(200, f'{{"mounted": "{request.path}"}}'.encode()))
    api.start()
    yield api
    api.stop()


@pytest.mark.parametrize("path", ["/console", "/console/", "/console/api/tables"])
def test_the_prefix_and_everything_under_it_reach_the_mounted_handler(gateway: ApiGateway, path: str) -> None:
    assert requests.get(f"{gateway.url}{path}", timeout=5).json() == {"mounted": path}


@pytest.mark.parametrize("path", ["/consoles", "/console-x", "/items/console"])
def test_other_paths_stay_the_apis(gateway: ApiGateway, path: str) -> None:
    assert requests.get(f"{gateway.url}{path}", timeout=5).json() == {"from": "function"}


def test_a_mounted_handler_sees_the_request() -> None:
    seen: list[RequestData] = []
    api = ApiGateway(RouteTable([]), _function, lambda _line: None, 0, "v1")
    api.mount("/console", lambda request: seen.append(request) or Reply(204, b""))
    api.start()
    try:
        requests.post(f"{api.url}/console/api/zcells?x=1", data=b"{}", timeout=5)
    finally:
        api.stop()
    assert (seen[0].method, seen[0].path, seen[0].query, seen[0].body) == (
        "POST",
        "/console/api/zcells",
        "x=1",
        b"{}",
    )
