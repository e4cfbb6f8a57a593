"""Dashboards within CloudWatch's limits with room to grow: a summary and one per service, each named
after its stage and region (dashboards are global to an account) and at most 250 widgets."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.support.alarm_templates import services
from tests.support.synthesis import Synthesized


def _dashboards(synthesized: Synthesized) -> dict[str, dict[str, Any]]:
    """Dashboard name (with `{region}` for the region) -> its properties."""
    found = {}
    for resource in synthesized.monitoring["Resources"].values():
        if resource["Type"] == "AWS::CloudWatch::Dashboard":
            name = resource["Properties"]["DashboardName"]["Fn::Join"][1]
            text = "".join(part if isinstance(part, str) else "{" + part["Ref"] + "}" for part in name)
            found[text] = resource["Properties"]
    return found


def _body(dashboard: dict[str, Any]) -> str:
    """The body's text, its references left out."""
    return "".join(part for part in dashboard["DashboardBody"]["Fn::Join"][1] if isinstance(part, str))


def test_a_summary_and_one_dashboard_per_service_named_after_the_stage_and_region(
    synthesized: Synthesized,
) -> None:
    expected = {f"Tatami-{{AWS::Region}}-{name}" for name in [*services(synthesized), "Summary"]}
    assert set(_dashboards(synthesized)) == expected and len(expected) == 17


def test_every_dashboard_holds_at_most_250_widgets(synthesized: Synthesized) -> None:
    """CloudWatch takes 500 per dashboard; the one dashboard of before held 395."""
    counts = {name: len(json.loads(_widgets_json(d))) for name, d in _dashboards(synthesized).items()}
    assert all(0 < count <= 250 for count in counts.values()), counts
    assert max(counts.values()) < 100  # today's largest (counters), so a service can grow


def _widgets_json(dashboard: dict[str, Any]) -> str:
    """The `widgets` array with each reference replaced by a placeholder string."""
    parts = dashboard["DashboardBody"]["Fn::Join"][1]
    body = "".join(part if isinstance(part, str) else "REF" for part in parts)
    return json.dumps(json.loads(body)["widgets"])


def test_headings_say_which_part_they_show(synthesized: Synthesized) -> None:
    for name, dashboard in _dashboards(synthesized).items():
        headings = re.findall(r'"markdown":"#+ ([^"]*)"', _body(dashboard))
        assert headings and len(headings) == len(set(headings)), (name, headings)
        assert not any(re.fullmatch(r"[^*]*\*\*\[?(Function|Api)\]?", h) for h in headings), (name, headings)
        assert headings[0].startswith("Tatami in "), (name, headings[0])
