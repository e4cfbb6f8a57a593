"""DynamoDB Local SIGKILLed under the running faulty cloud (its data in a folder: `--db-path`).

Invariant: the death is named in one line within seconds, DynamoDB Local comes back on its port with
what was written before, and the API serves again without restarting the cloud. (Runs after the other
fault tests of this cloud: their stream consumers have settled by then.)
"""

from __future__ import annotations

import os
import signal
import time
import uuid

import requests

from tatami.local.cloud import LocalCloud
from tatami.local.engines.processes import DYNAMODB_LOCAL
from tatami_functions import stack_outputs
from tests.support.waiting import eventually


def _lines(cloud: LocalCloud, text: str) -> list[str]:
    return [line for line in cloud.log.snapshot() if text in line]


def test_a_killed_dynamodb_local_is_named_within_seconds_and_comes_back_with_its_data(
    faulty_cloud: LocalCloud,
) -> None:
    table = faulty_cloud.outputs[stack_outputs.OUTPUT_PLACES_TABLE]
    place = f"survivor-{uuid.uuid4().hex[:8]}"
    item = {"id": {"S": place}, "name": {"S": "Survivor"}, "latitude": {"N": "1"}, "longitude": {"N": "2"}}
    faulty_cloud.client("dynamodb").put_item(TableName=table, Item=item)
    (engine,) = [e for e in faulty_cloud.engines if e.name == DYNAMODB_LOCAL]
    assert engine.process is not None
    os.killpg(engine.process.pid, signal.SIGKILL)
    killed_at = time.monotonic()
    named = eventually(lambda: _lines(faulty_cloud, f"{DYNAMODB_LOCAL} on {engine.endpoint} was killed"), 10)
    named_after = time.monotonic() - killed_at
    assert named and named_after < 5, named
    assert named[0].endswith("was killed by SIGKILL; restarting it with its data")
    back = eventually(lambda: _lines(faulty_cloud, f"{DYNAMODB_LOCAL} is back on {engine.endpoint}"), 120)
    assert back
    print(f"named {named_after:.1f} s after the kill; {back[0].split(' | ', 1)[-1]}")
    assert faulty_cloud.engine_status()[DYNAMODB_LOCAL] == {
        "endpoint": engine.endpoint,
        "running": True,
        "restarts": 1,
    }
    response = requests.get(f"{faulty_cloud.api_url}/places/{place}", timeout=60)
    assert (response.status_code, response.json()["name"]) == (200, "Survivor")
