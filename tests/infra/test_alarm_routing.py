"""Alarms reach a person, and only when it matters: Warnings and Criticals go to two topics, a service's
Critical alarms page once through its composite alarm (the name its deployments roll back on), each
topic reports the other's failures, and every alarm links its section of the runbook
(infra/constructs/alarm_plan.py, alarm_group.py, alarm_topic.py, runbook.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import aws_cdk as cdk
import pytest

from infra.constants import critical_alarm_name
from infra.constructs.alarm_topic import AlarmDestinations
from infra.constructs.monitoring import Monitoring
from infra.constructs.monitoring_targets import Targets
from infra.constructs.runbook import SECTIONS, anchor
from tests.support.alarm_templates import alarms, series, services
from tests.support.synthesis import Synthesized

RUNBOOK = Path(__file__).resolve().parents[2] / "docs" / "runbook.md"


def _topics(synthesized: Synthesized) -> dict[str, str]:
    """Urgency -> the topic's logical id (by its display name)."""
    return {
        r["Properties"]["DisplayName"].split()[-2]: k
        for k, r in synthesized.monitoring["Resources"].items()
        if r["Type"] == "AWS::SNS::Topic"
    }


def test_warnings_and_criticals_go_to_two_topics_on_alarm_and_on_ok(synthesized: Synthesized) -> None:
    topics = _topics(synthesized)
    assert set(topics) == {"Critical", "Warning"}
    members = _composite_members(synthesized)
    for logical_id, alarm in alarms(synthesized).items():
        urgency = alarm["AlarmName"].rsplit("-", 1)[1]
        assert alarm["AlarmName"].startswith("Tatami-"), alarm["AlarmName"]
        told = alarm.get("AlarmActions", [])
        assert told == alarm.get("OKActions", []), alarm["AlarmName"]
        if "Notifications-Failed" in alarm["AlarmName"]:
            continue  # the next test: each topic's failures go to the other
        if logical_id in members:  # a service's Critical: its composite pages
            assert urgency == "Critical" and told == [], alarm["AlarmName"]
        else:
            assert told == [{"Ref": topics[urgency]}], alarm["AlarmName"]


def _composite_members(synthesized: Synthesized) -> dict[str, str]:
    """Alarm logical id -> the composite alarm whose rule names it."""
    found = {}
    for composite in alarms(synthesized, "AWS::CloudWatch::CompositeAlarm").values():
        for part in json.dumps(composite["AlarmRule"]).split('"Fn::GetAtt": ["')[1:]:
            found[part.split('"')[0]] = composite["AlarmName"]
    return found


def test_a_composite_alarm_per_service_pages_for_exactly_its_critical_alarms(
    synthesized: Synthesized,
) -> None:
    """Named as `critical_alarm_name` says: the service stack's deployment groups roll back on it."""
    composites = alarms(synthesized, "AWS::CloudWatch::CompositeAlarm").values()
    names = {critical_alarm_name("Tatami", s) for s in services(synthesized)}
    assert {c["AlarmName"] for c in composites} == names and len(names) == 16
    (critical,) = [k for urgency, k in _topics(synthesized).items() if urgency == "Critical"]
    for composite in composites:
        assert composite["AlarmActions"] == composite["OKActions"] == [{"Ref": critical}]
        assert "#a-service-is-critical" in composite["AlarmDescription"]
    members = _composite_members(synthesized)
    for logical_id in alarms(synthesized):
        if logical_id in members:
            service = members[logical_id].removeprefix("Tatami-").removesuffix("-Critical")
            assert logical_id.startswith(f"Monitoring{service.replace('_', '')}Facade"), (logical_id, service)
    api_faults = [a for a in alarms(synthesized).values() if a["AlarmName"].endswith("Fault-Rate-Critical")]
    assert [a["AlarmActions"] for a in api_faults] == [[{"Ref": critical}]]  # the API belongs to no service


def test_each_topic_says_when_the_other_cannot_deliver(synthesized: Synthesized) -> None:
    topics = _topics(synthesized)
    failing = {
        dict(dimensions)["TopicName"]: alarm["AlarmActions"]
        for alarm in alarms(synthesized).values()
        for _, metric, dimensions in series(synthesized, alarm)
        if metric == "NumberOfNotificationsFailed"
    }
    assert failing == {
        f"TatamiMonitoring:{topics['Critical']}": [{"Ref": topics["Warning"]}],
        f"TatamiMonitoring:{topics['Warning']}": [{"Ref": topics["Critical"]}],
    }


def test_cloudwatch_may_publish_for_this_stacks_alarms_only(synthesized: Synthesized) -> None:
    resources = synthesized.monitoring["Resources"].values()
    statements = [
        s
        for r in resources
        if r["Type"] in ("AWS::KMS::Key", "AWS::SNS::TopicPolicy")
        for s in (r["Properties"].get("KeyPolicy") or r["Properties"]["PolicyDocument"])["Statement"]
        if s.get("Principal") == {"Service": "cloudwatch.amazonaws.com"}
    ]
    assert len(statements) == 3  # the key and both topics
    for statement in statements:
        assert "alarm:Tatami-*" in json.dumps(statement["Condition"]["ArnLike"]["aws:SourceArn"])
        assert "aws:SourceAccount" in statement["Condition"]["StringEquals"]


def test_an_alarm_email_from_cdk_json_subscribes_to_both_topics() -> None:
    assert not AlarmDestinations.from_context({})
    destinations = AlarmDestinations.from_context(
        {
            "alarmEmail": " ops@example.com ",
            "alarmDestinations": {
                "critical": ["https://events.pagerduty.com/integration/abc/enqueue"],
                "warning": ["arn:aws:sns:eu-west-1:123456789012:team-chat"],
            },
        }
    )
    stack = cdk.Stack(cdk.App(), "Watching")
    Monitoring(stack, "Monitoring", targets=Targets(), alarm_prefix="T", destinations=destinations)
    template = cdk.assertions.Template.from_stack(stack)
    emails = template.find_resources("AWS::SNS::Subscription", {"Properties": {"Protocol": "email"}})
    assert len(emails) == 2  # told of Criticals and of Warnings
    template.has_resource_properties("AWS::SNS::Subscription", {"Protocol": "https"})
    warned = template.find_resources(
        "AWS::CloudWatch::Alarm",
        {"Properties": {"AlarmName": "T-CriticalTopic-Topic-Notifications-Failed-Warning"}},
    )
    (alarm,) = warned.values()
    assert "arn:aws:sns:eu-west-1:123456789012:team-chat" in alarm["Properties"]["AlarmActions"]


@pytest.mark.parametrize(
    "context",
    [
        {"alarmEmail": "ops"},
        {"alarmDestinations": {"critical": ["http://insecure"]}},
        {"alarmDestinations": {"page": []}},
    ],
)
def test_a_destination_that_cannot_be_told_is_refused(context: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"cdk\.json"):
        AlarmDestinations.from_context(context)


def test_every_alarm_links_a_section_of_the_runbook(synthesized: Synthesized) -> None:
    headings = {anchor(h) for h in re.findall(r"^## (.+)$", RUNBOOK.read_text(), flags=re.MULTILINE)}
    assert {anchor(section) for section in SECTIONS} <= headings
    everything = [
        *alarms(synthesized).values(),
        *alarms(synthesized, "AWS::CloudWatch::CompositeAlarm").values(),
    ]
    linked = {re.search(r"Runbook: docs/runbook\.md#([\w-]+)", a["AlarmDescription"]) for a in everything}
    assert None not in linked
    assert {found[1] for found in linked if found} <= headings
