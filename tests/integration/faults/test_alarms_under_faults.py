"""The template's alarms under injected faults: a function that keeps failing (its errors alarm and, once
the API has answered enough requests for a rate to mean something, the API's 5xx alarm) and throttled
tables and indexes (a table's one alarm, past its floor), each to ALARM and back to OK once the fault
is gone. The clock is moved ahead instead of waiting out the 5-minute periods."""

from __future__ import annotations

import uuid
from collections import Counter

import requests

from tatami.local.cloud import LocalCloud
from tatami_functions import stack_outputs
from tests.integration.counters.cloud_helpers import create
from tests.integration.faults.conftest import increment_until_accepted
from tests.support.alarms import alarm_on, next_period, states
from tests.support.waiting import eventually

FLOOR, ENOUGH_REQUESTS = 50, 50  # infra/constructs/alarm_plan.py's throttled_events_floor, api_min_requests


def test_a_function_that_keeps_failing_raises_its_errors_alarm_and_the_apis_5xx_alarm(
    faulty_cloud: LocalCloud,
) -> None:
    (forum,) = [
        spec.name for i, spec in faulty_cloud.assembly.functions.items() if i.startswith("ForumModel")
    ]
    (api_name,) = [
        p["Name"] for s in faulty_cloud.assembly.stacks for _, p in s.resources("AWS::ApiGateway::RestApi")
    ]
    failing = alarm_on(faulty_cloud, "Errors", FunctionName=forum)
    api_5xx = alarm_on(faulty_cloud, "5XXError", ApiName=api_name, Stage="v1")
    openapi = f"{faulty_cloud.api_url}/openapi.json"  # answered by the docs function, warm from now on
    assert eventually(lambda: requests.get(openapi, timeout=30).status_code == 200, timeout=120)
    next_period(faulty_cloud)
    # The function's execution environment is killed after its first call: Lambda's error, the API's 502.
    assert requests.get(f"{faulty_cloud.api_url}/forums/alarms", timeout=30).status_code == 502
    next_period(faulty_cloud)
    # One 502 in one request: the function's error pages, a rate of one request does not.
    assert states(faulty_cloud, failing, api_5xx) == {failing: "ALARM", api_5xx: "OK"}
    for _ in range(ENOUGH_REQUESTS):
        assert requests.get(openapi, timeout=30).status_code == 200
    for _ in range(5):  # 5 of 55 answers: 9%, over 5%
        assert requests.get(f"{faulty_cloud.api_url}/forums/alarms", timeout=30).status_code == 502
    next_period(faulty_cloud)
    assert states(faulty_cloud, failing, api_5xx) == {failing: "ALARM", api_5xx: "ALARM"}
    next_period(faulty_cloud)
    assert states(faulty_cloud, failing, api_5xx) == {failing: "OK", api_5xx: "OK"}  # no failure since


def test_a_table_throttled_past_its_floor_raises_its_alarm_and_a_few_throttles_do_not(
    faulty_cloud: LocalCloud,
) -> None:
    """The replicator's writes to its replica are throttled on a share of its calls until the replica
    passes the floor: its one alarm (over the table and its indexes) fires. A few throttled writes of
    the counters' tables and index reads of a places search are retried and no news: OK. The next
    quiet period, all OK."""
    name = create(faulty_cloud, "throttled")
    next_period(faulty_cloud)
    for n in range(3):
        increment_until_accepted(faulty_cloud, name, 1, f"throttled-{n}")
    box = "latitude_min=1&latitude_max=2&longitude_min=1&longitude_max=2"
    requests.get(f"{faulty_cloud.api_url}/places/search?{box}", timeout=60)  # half its index reads throttled
    replica = faulty_cloud.outputs[stack_outputs.OUTPUT_LOGFILE_REPLICA_TABLE]
    for _ in range(3):  # a few hundred records: the replica's writes pass the floor
        _replicate(faulty_cloud, 400)
        if eventually(lambda: _throttled(faulty_cloud)[replica] > FLOOR, timeout=60):
            break
    throttled = _throttled(faulty_cloud)  # the throttle lines are written before the answers leave
    busy = [table for table, events in throttled.items() if events > FLOOR]
    few = [table for table, events in throttled.items() if events <= FLOOR]
    assert replica in busy and few, throttled
    alarms = {table: _alarm_of(faulty_cloud, table) for table in busy + few}
    next_period(faulty_cloud)
    assert states(faulty_cloud, *alarms.values()) == {
        alarm: "ALARM" if table in busy else "OK" for table, alarm in alarms.items()
    }
    next_period(faulty_cloud)
    assert set(states(faulty_cloud, *alarms.values()).values()) == {"OK"}


def _replicate(cloud: LocalCloud, count: int) -> None:
    """`count` log lines written to the replicator's source table (it copies each to its replica)."""
    client, source = cloud.client("dynamodb"), cloud.outputs[stack_outputs.OUTPUT_LOGFILE_TABLE]
    batch = uuid.uuid4().hex[:8]
    for start in range(0, count, 25):
        items = [
            {"PutRequest": {"Item": {"PK": {"S": f"request#{batch}-{n}"}, "n": {"N": str(n)}}}}
            for n in range(start, min(count, start + 25))
        ]
        assert not client.batch_write_item(RequestItems={source: items}).get("UnprocessedItems")


def _throttled(cloud: LocalCloud) -> Counter[str]:
    """Per table, its and its indexes' throttle events in the period under way (read at this refresh)."""
    cloud.alarm_states()
    now = cloud.clock.now()
    start = now - now % 300
    events: Counter[str] = Counter()
    for namespace, name, dimensions in cloud.metrics.store.names():
        if name in ("ReadThrottleEvents", "WriteThrottleEvents"):
            found = cloud.metrics.store.values(namespace, name, dict(dimensions), start, now + 1)
            events[dict(dimensions)["TableName"]] += int(sum(found))
    return +events


def _alarm_of(cloud: LocalCloud, table: str) -> str:
    """The throttling alarm of a table (it reads the table's and its indexes' events)."""
    assert cloud.alarms is not None
    (name,) = [
        spec.name
        for spec in cloud.alarms.specs
        if "Throttled-Events" in spec.name
        and any(dict(m.dimensions).get("TableName") == table for m in spec.metrics)
    ]
    return name
