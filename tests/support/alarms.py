"""The template's alarms on a local cloud: found by what they watch, their periods let pass at once."""

from __future__ import annotations

from tatami.local.cloud import LocalCloud
from tests.support.waiting import eventually

PERIOD = 300  # every alarm these tests trip evaluates 5-minute periods


def alarm_on(cloud: LocalCloud, metric: str, **dimensions: str) -> str:
    """The name of the one alarm of the template on `metric` with exactly these dimensions."""
    assert cloud.alarms is not None
    (name,) = [
        spec.name
        for spec in cloud.alarms.specs
        if any(m.name == metric and dict(m.dimensions) == dimensions for m in spec.metrics)
    ]
    return name


def next_period(cloud: LocalCloud, period: int = PERIOD) -> None:
    """Move the cloud's clock to one second into the next period: the one under way is complete, and a
    test has the whole new period (5 minutes of the machine's time) for its next steps. First every
    stream trigger finishes what it has: a record waiting while the clock moves would age with it (a
    held trigger's records do: that is what holding it is for)."""
    assert eventually(lambda: all(poller.idle() or poller.held for poller in cloud.pollers), timeout=60)
    cloud.clock.advance(period - cloud.clock.now() % period + 1)


def states(cloud: LocalCloud, *names: str) -> dict[str, str]:
    """The alarms' states now (sampled and evaluated at once)."""
    current = {alarm["name"]: alarm["state"] for alarm in cloud.alarm_states()}
    return {name: current[name] for name in names}


def seen(cloud: LocalCloud, namespace: str, metric: str, **dimensions: str) -> list[float]:
    """Every datapoint of a metric the cloud has seen so far."""
    return cloud.metrics.store.values(namespace, metric, dimensions, 0.0, float("inf"))
