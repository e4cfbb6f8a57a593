"""`tatami doctor` fails on an alarm that can never fire under the schedule of the function feeding it,
and on a stage someone operates whose alarms reach no one (tatami/doctor/alarms.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tatami.doctor.alarms import check_alarms
from tatami.local.template.assembly import load_assembly
from tests.support.synthesis import Synthesized
from tests.support.templates import Template, copy_assembly


def _lines(cdk_out: Path) -> list[str]:
    return [finding.line() for finding in check_alarms(load_assembly(cdk_out))]


def _broken_lines(synthesized: Synthesized, tmp_path: Path, change: Callable[[Template], None]) -> list[str]:
    """The alarm findings of a copy of `synthesized` whose monitoring template `change` changed."""
    monitoring = f"{synthesized.name}Monitoring.template.json"
    return _lines(copy_assembly(synthesized.cdk_out, tmp_path / "cdk.out", change, template=monitoring))


def test_an_operated_stage_routed_to_someone_has_no_alarm_findings(operated: Synthesized) -> None:
    assert _lines(operated.cdk_out) == []  # and the stage-less app: test_doctor's no findings at all


def _as_before(template: Template) -> None:
    """The export function's duration alarm as it was: p99 over 5 minutes, 3 datapoints of 3."""
    for resource in template["Resources"].values():
        props = resource.get("Properties", {})
        if str(props.get("AlarmName", "")).endswith("Olap-ExportFunction-Latency-P99-Warning"):
            props.update({"EvaluationPeriods": 3, "DatapointsToAlarm": 3})
            (duration,) = props["Metrics"]
            duration["MetricStat"]["Period"] = 300
            return
    raise AssertionError("no duration alarm of the export function")


def test_an_alarm_its_hourly_function_can_never_trip_is_named(
    synthesized: Synthesized, tmp_path: Path
) -> None:
    (line,) = _broken_lines(synthesized, tmp_path, _as_before)
    assert line.startswith(
        "alarm    Tatami-Olap-ExportFunction-Latency-P99-Warning: needs 3 of 3 periods of 300 s"
    )
    assert line.endswith("runs every 3600 s: at most 1 period(s) with data, so it never fires")


def _unsubscribed(template: Template) -> None:
    subscriptions = [k for k, r in template["Resources"].items() if r["Type"] == "AWS::SNS::Subscription"]
    assert subscriptions
    for logical_id in subscriptions:
        del template["Resources"][logical_id]


def test_an_operated_stage_whose_alarms_reach_no_one_is_named(operated: Synthesized, tmp_path: Path) -> None:
    (line,) = _broken_lines(operated, tmp_path, _unsubscribed)
    assert line.startswith("alarm    Tatami-prodMonitoring: stage 'prod': none of its")
    assert "set alarmEmail or alarmDestinations" in line


def _one_silent(template: Template) -> None:
    for resource in template["Resources"].values():
        props = resource.get("Properties", {})
        if str(props.get("AlarmName", "")).endswith("Api-Api-Latency-P99-Warning"):
            props["AlarmActions"] = props["OKActions"] = []
            return


def test_one_alarm_of_an_operated_stage_telling_no_one_is_named(
    operated: Synthesized, tmp_path: Path
) -> None:
    (line,) = _broken_lines(operated, tmp_path, _one_silent)
    assert "ApiApiLatencyP99Warning" in line and line.endswith(
        "notifies no one, directly or through a composite"
    )
