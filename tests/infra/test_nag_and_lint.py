"""cdk-nag AwsSolutions and cfn-lint on the synthesized app: zero findings left unexplained."""

from __future__ import annotations

from pathlib import Path

from cfnlint.api import ManualArgs, lint_file

from tests.support.synthesis import Synthesized

# CDK adds DependsOn for the function's own role although Role already references it.
CFN_LINT_IGNORED = ["W3005"]


def test_cdk_nag_has_no_unsuppressed_findings(synthesized: Synthesized) -> None:
    findings = [
        f"{path}: {entry['data']}"
        for path, entries in synthesized.metadata.items()
        for entry in entries
        if entry["type"] in ("aws:cdk:error", "aws:cdk:warning")
    ]
    assert findings == []


def test_every_nag_suppression_gives_a_reason(synthesized: Synthesized) -> None:
    report = (synthesized.cdk_out / "AwsSolutions--Tatami-NagReport.csv").read_text().splitlines()
    suppressed = [line for line in report if ',"Suppressed",' in line]
    assert suppressed, "the report lists the suppressions"
    for line in suppressed:
        reason = line.split('"Suppressed","', 1)[1].split('"', 1)[0]
        assert len(reason) > 20, line


def test_cfn_lint_finds_no_errors(synthesized: Synthesized) -> None:
    template = Path(synthesized.cdk_out) / "Tatami.template.json"
    matches = lint_file(template, ManualArgs(ignore_checks=CFN_LINT_IGNORED, regions=["us-east-1"]))
    assert [str(m) for m in matches] == []
