"""tatami/local/cloudwatch/alarms.py:
every alarm's state, and a log line for each one going into or out of ALARM."""

from __future__ import annotations

from tatami.local.cloudwatch.alarm_specs import AlarmSpec, MetricStat
from tatami.local.cloudwatch.alarms import Alarms
from tatami.local.cloudwatch.metrics import LocalClock, MetricStore

PERIOD = 300


def spec(name: str, metric: str, missing: str) -> AlarmSpec:
    stat = MetricStat("m1", "AWS/Lambda", metric, (("FunctionName", "fn"),), "Maximum", PERIOD)
    return AlarmSpec(name, name, (stat,), "m1", "GreaterThanThreshold", 0.0, PERIOD, 1, 1, missing)


def test_states_log_lines_and_samplers() -> None:
    clock, lines, sampled = LocalClock(), [], []
    store = MetricStore(clock)
    alarms = Alarms(
        [spec("errors", "Errors", "notBreaching"), spec("age", "IteratorAge", "missing")],
        store,
        samplers=[lambda: sampled.append(1)],
        log=lines.append,
    )
    alarms.refresh()
    assert lines == ["2 alarms evaluated: {'INSUFFICIENT_DATA': 1, 'OK': 1}"]
    store.put("AWS/Lambda", "Errors", {"FunctionName": "fn"}, 1)
    clock.advance(PERIOD - clock.now() % PERIOD + 1)  # into the next period: the error's is complete
    states = alarms.refresh()
    assert [(s["name"], s["state"]) for s in states] == [("errors", "ALARM"), ("age", "INSUFFICIENT_DATA")]
    assert lines[-1].startswith("errors: OK -> ALARM: 1 of the last 1 datapoints")
    store.put("AWS/Lambda", "IteratorAge", {"FunctionName": "fn"}, 0)  # a quiet consumer read again: OK
    clock.advance(PERIOD)
    alarms.refresh()
    assert alarms.state("errors") == alarms.state("age") == "OK"
    assert (
        lines[-1].startswith("errors: ALARM -> OK") and len(lines) == 3
    )  # OK <-> INSUFFICIENT_DATA: no line
    assert len(sampled) == 3
