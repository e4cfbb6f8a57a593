"""The local cloud invokes what the template's triggers name: API Gateway's integration and the stream
mappings name each function's alias `live` (what CodeDeploy shifts), so the function runs through it,
seeing the alias's ARN and version as it would in Lambda."""

from __future__ import annotations

import json
import uuid

import requests

from tatami.local.cloud import LocalCloud
from tatami.local.template.assembly import LOCAL_VERSION
from tests.integration.counters.cloud_helpers import create, increment
from tests.support.waiting import eventually


def _function(cloud: LocalCloud, prefix: str) -> str:
    (found,) = [logical_id for logical_id in cloud.assembly.functions if logical_id.startswith(prefix)]
    return found


def _logged(cloud: LocalCloud, request_id: str) -> list[str]:
    return [line for line in cloud.log.snapshot() if request_id in line]


def test_the_gateway_invokes_an_api_function_through_its_alias(app_cloud: LocalCloud) -> None:
    function_id = _function(app_cloud, "PlacesApiFunction")
    place = {"name": "Aliasville", "latitude": "north", "longitude": 20.0, "population": 5}
    response = requests.put(
        f"{app_cloud.api_url}/places/alias-{uuid.uuid4().hex[:8]}", json=place, timeout=30
    )
    assert response.status_code == 400, response.text
    invocation = app_cloud.pools[function_id].recent[-1]
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
    last = pool.recent[-1].request_id if pool.recent else None
    counter = create(app_cloud, "aliased")
    assert increment(app_cloud, counter).ok
    assert eventually(lambda: bool(pool.recent) and pool.recent[-1].request_id != last, timeout=60)
    assert pool.recent[-1].qualifier == "live"
