"""Two stages in one account and region: no alarm of one watches a series of the other (each stage's
API has its own name, its functions print to their own namespace), only the stage that watches the
account alarms on the account, and a stage someone operates cannot be synthesized without telling
someone (infra/stacks/monitoring_stack.py)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from infra.app import create_app
from tests.support.alarm_templates import alarms, series
from tests.support.synthesis import Synthesized, operated_stage_context


def _watched_series(synthesized: Synthesized) -> dict[tuple[object, ...], list[str]]:
    found: dict[tuple[object, ...], list[str]] = defaultdict(list)
    for alarm in alarms(synthesized).values():
        for watched in series(synthesized, alarm):
            found[watched].append(alarm["AlarmName"])
    return found


def test_no_two_alarms_of_two_stages_watch_the_same_series(
    synthesized: Synthesized, operated: Synthesized
) -> None:
    default, prod = _watched_series(synthesized), _watched_series(operated)
    assert operated.name == "Tatami-prod" and len(default) > 300
    shared = {watched: (default[watched], prod[watched]) for watched in default.keys() & prod.keys()}
    assert shared == {}


def test_only_the_stage_that_watches_the_account_alarms_on_its_concurrency(
    synthesized: Synthesized, operated: Synthesized
) -> None:
    def concurrency(stage: Synthesized) -> list[str]:
        return [a["AlarmName"] for a in alarms(stage).values() if "Concurrent-Executions" in a["AlarmName"]]

    assert concurrency(synthesized) == []  # a developer's stage leaves the account to the operated one
    assert concurrency(operated) == ["Tatami-prod-Account-Concurrent-Executions-Warning"]


def test_an_operated_stage_tells_its_destinations_and_links_a_runbook_that_opens(
    operated: Synthesized,
) -> None:
    subscriptions = [
        r["Properties"]
        for r in operated.monitoring["Resources"].values()
        if r["Type"] == "AWS::SNS::Subscription"
    ]
    assert [s["Endpoint"] for s in subscriptions] == ["oncall@example.com"] * 2
    for alarm in alarms(operated).values():
        assert (
            "Runbook: https://git.example.com/tatami/blob/main/docs/runbook.md#" in alarm["AlarmDescription"]
        )


@pytest.mark.parametrize(
    ("missing", "named"), [("alarmEmail", "alarm destination"), ("runbookUrl", "runbookUrl")]
)
def test_an_operated_stage_without_a_destination_or_a_runbook_url_is_refused(
    missing: str, named: str
) -> None:
    context = operated_stage_context()
    context["tatami"] = {k: v for k, v in context["tatami"].items() if k != missing}
    with pytest.raises(ValueError, match=f"stage 'prod' has no {named}"):
        create_app(context=context)  # refused before the first construct: fast
