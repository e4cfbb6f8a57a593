"""cdk-nag (3.x) AwsSolutions on the synthesized app: no violation, every acknowledgment explained.

cfn-lint runs in `make check-deploy` (`tatami doctor`, which `make test` runs before pytest), once.
"""

from __future__ import annotations

import json
from pathlib import Path

import aws_cdk as cdk
import pytest
from aws_cdk import aws_sqs as sqs

from infra.nag import acknowledge, check_app
from tatami.doctor import check_nag
from tests.support.synthesis import Synthesized


def test_cdk_nag_reports_no_violation(synthesized: Synthesized) -> None:
    report = json.loads((synthesized.cdk_out / "validation-report.json").read_text())
    plugins = [
        (plugin["pluginName"], plugin["conclusion"], plugin["violations"])
        for plugin in report["pluginReports"]
    ]
    assert plugins == [("AwsSolutions", "success", [])]
    assert check_nag(synthesized.cdk_out) == []
    problems = [
        f"{path}: {entry['data']}"
        for path, entries in synthesized.metadata.items()
        for entry in entries
        if entry["type"] in ("aws:cdk:error", "aws:cdk:warning")
    ]
    assert problems == []


def test_every_acknowledgment_gives_a_reason(synthesized: Synthesized) -> None:
    acknowledged = {
        (path, rule): reason
        for path, entries in synthesized.metadata.items()
        for entry in entries
        if entry["type"] == "aws:cdk:acknowledged-rules"
        for rule, reason in entry["data"].items()
    }
    assert acknowledged, "the constructs acknowledge some rules"
    for (path, rule), reason in acknowledged.items():
        assert rule.startswith("AwsSolutions::AwsSolutions-"), (path, rule)
        assert len(reason) > 20, (path, rule, reason)


def test_a_violation_fails_synthesis_and_doctor_names_it(tmp_path: Path) -> None:
    """The plugin is wired in: an unacknowledged finding stops synthesis; an acknowledged one does not."""
    app = cdk.App(outdir=str(tmp_path))
    stack = cdk.Stack(app, "Nagged")
    acknowledge(sqs.Queue(stack, "Parked", enforce_ssl=True), "AwsSolutions-SQS3", "a queue of this test")
    sqs.Queue(stack, "Unexplained", enforce_ssl=True)
    check_app(app)
    with pytest.raises(RuntimeError, match="AwsSolutions-SQS3"):
        app.synth()
    (finding,) = check_nag(tmp_path)
    assert finding.subject == "Nagged/Unexplained/Resource"
    assert finding.message.startswith("AwsSolutions-SQS3: ")
