"""The local cloud invokes what the template's triggers name: API Gateway's integration and the stream
mappings name each function's alias `live` (what CodeDeploy shifts), so the function runs through it,
seeing the alias's ARN and version as it would in Lambda."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable

import requests

from tatami.local.cloud import LocalCloud
from tatami.local.functions.pool import FunctionPool
from tatami.local.template.assembly import LOCAL_VERSION
from tests.integration.counters.cloud_helpers import increment
from tests.support.waiting import eventually


def _function(cloud: LocalCloud, prefix: str) -> str:
    (found,) = [logical_id for logical_id in cloud.assembly.functions if logical_id.startswith(prefix)]
    return found


def _logged(cloud: LocalCloud, request_id: str) -> list[str]:
    return [line for line in cloud.log.snapshot() if request_id in line]


def _past_cold_start(pool: FunctionPool, send: Callable[[], requests.Response]) -> requests.Response:
    """`send`, again while its function's init outlives the local cloud's 20 s allowance (a 502 on a
    machine loaded by other test runs): what is tested here is the path, not the cold start."""
    for _ in range(3):
        response = send()
        cold = response.status_code == 502 and pool.recent[-1].error.get("errorType") == "Runtime.InitError"
        if not cold:
            break
    return response


def test_the_gateway_invokes_an_api_function_through_its_alias(app_cloud: LocalCloud) -> None:
    function_id = _function(app_cloud, "PlacesApiFunction")
    pool = app_cloud.pools[function_id]
    place = {"name": "Aliasville", "latitude": "north", "longitude": 20.0, "population": 5}
    url = f"{app_cloud.api_url}/places/alias-{uuid.uuid4().hex[:8]}"
    response = _past_cold_start(pool, lambda: requests.put(url, json=place, timeout=60))
    invocation = pool.recent[-1]
    assert response.status_code == 400, (response.text, invocation.error)
    assert invocation.qualifier == "live"
    function_arn = app_cloud.resolver.get_att(function_id, "Arn")
    # Lambda's START line names the version; Powertools logs the ARN the function was invoked by.
    assert eventually(lambda: len(_logged(app_cloud, invocation.request_id)) >= 2)
    lines = _logged(app_cloud, invocation.request_id)
    assert any(f"START RequestId: {invocation.request_id} Version: {LOCAL_VERSION}" in line for line in lines)
    rejected = [json.loads(line[line.index("{") :]) for line in lines if "rejected request" in line]
    assert [entry["function_arn"] for entry in rejected] == [f"{function_arn}:live"]


def test_a_stream_mapping_invokes_its_consumer_through_its_alias(app_cloud: LocalCloud) -> None:
    pool = app_cloud.pools[_function(app_cloud, "CountersRollupFunction")]
    writer = app_cloud.pools[_function(app_cloud, "CountersWriteFunction")]
    last = pool.recent[-1].request_id if pool.recent else None
    name = f"aliased-{uuid.uuid4().hex[:8]}"
    url = f"{app_cloud.api_url}/counters/{name}"
    created = _past_cold_start(writer, lambda: requests.put(url, json={"target_wcu": 100}, timeout=60))
    assert created.status_code == 201, created.text
    assert increment(app_cloud, name).ok
    assert eventually(lambda: bool(pool.recent) and pool.recent[-1].request_id != last, timeout=90)
    assert pool.recent[-1].qualifier == "live"
