"""The template's alarms under injected faults: a function that keeps failing (its errors alarm and the
API's 5xx alarm) and throttled tables and indexes (their throttling alarms), each to ALARM and back
to OK once the fault is gone. The clock is moved ahead instead of waiting out the 5-minute periods."""

from __future__ import annotations

import requests

from tatami.local.cloud import LocalCloud
from tests.integration.counters.cloud_helpers import create
from tests.integration.faults.conftest import increment_until_accepted
from tests.support.alarms import alarm_on, next_period, states


def test_a_function_that_keeps_failing_raises_its_errors_alarm_and_the_apis_5xx_alarm(
    faulty_cloud: LocalCloud,
) -> None:
    (forum,) = [
        spec.name for i, spec in faulty_cloud.assembly.functions.items() if i.startswith("ForumModel")
    ]
    failing = alarm_on(faulty_cloud, "Errors", FunctionName=forum)
    api_5xx = alarm_on(faulty_cloud, "5XXError", ApiName="Api", Stage="v1")
    next_period(faulty_cloud)
    # The function's execution environment is killed after its first call: Lambda's error, the API's 502.
    assert requests.get(f"{faulty_cloud.api_url}/forums/alarms", timeout=30).status_code == 502
    next_period(faulty_cloud)
    assert states(faulty_cloud, failing, api_5xx) == {failing: "ALARM", api_5xx: "ALARM"}
    next_period(faulty_cloud)
    assert states(faulty_cloud, failing, api_5xx) == {failing: "OK", api_5xx: "OK"}  # no failure since


def test_throttled_tables_and_indexes_raise_their_throttling_alarms(faulty_cloud: LocalCloud) -> None:
    """Every table and index DynamoDB throttled in a period has its alarm in ALARM; the next quiet
    period, OK. Throttles come from the increments' and the searches' injected faults."""
    name = create(faulty_cloud, "throttled")
    next_period(faulty_cloud)
    box = "latitude_min=1&latitude_max=2&longitude_min=1&longitude_max=2"
    requests.get(f"{faulty_cloud.api_url}/places/search?{box}", timeout=60)  # half its index reads throttled
    for n in range(10):  # a fifth of the increments' calls are refused: until one write was throttled
        increment_until_accepted(faulty_cloud, name, 1, f"throttled-{n}")
        if any(metric == "WriteThrottleEvents" for metric, _ in _throttled(faulty_cloud)):
            break
    throttled = _throttled(faulty_cloud)  # the throttle lines are written before the answers leave
    assert any("GlobalSecondaryIndexName" in dimensions for _, dimensions in throttled), throttled
    assert any(metric == "WriteThrottleEvents" for metric, _ in throttled), throttled
    alarms = [alarm_on(faulty_cloud, metric, **dimensions) for metric, dimensions in throttled]
    next_period(faulty_cloud)
    assert set(states(faulty_cloud, *alarms).values()) == {"ALARM"}
    next_period(faulty_cloud)
    assert set(states(faulty_cloud, *alarms).values()) == {"OK"}


def _throttled(cloud: LocalCloud) -> list[tuple[str, dict[str, str]]]:
    """The tables and indexes with throttle events in the period under way (read at this refresh)."""
    cloud.alarm_states()
    now = cloud.clock.now()
    start = now - now % 300
    return [
        (name, dict(dimensions))
        for namespace, name, dimensions in cloud.metrics.store.names()
        if name in ("ReadThrottleEvents", "WriteThrottleEvents")
        and cloud.metrics.store.values(namespace, name, dict(dimensions), start, now + 1)
    ]
