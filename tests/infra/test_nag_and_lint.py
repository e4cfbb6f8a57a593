"""cdk-nag AwsSolutions on the synthesized app (both stacks): zero findings left unexplained.

cfn-lint runs in `make check-deploy` (`tatami doctor`, which `make test` runs before pytest), once.
"""

from __future__ import annotations

from tests.support.synthesis import Synthesized


def test_cdk_nag_has_no_unsuppressed_findings(synthesized: Synthesized) -> None:
    findings = [
        f"{path}: {entry['data']}"
        for path, entries in synthesized.metadata.items()
        for entry in entries
        if entry["type"] in ("aws:cdk:error", "aws:cdk:warning")
    ]
    assert findings == []


def test_every_nag_suppression_gives_a_reason(synthesized: Synthesized) -> None:
    reports = sorted(synthesized.cdk_out.glob("AwsSolutions--*-NagReport.csv"))
    assert [r.name for r in reports] == [
        "AwsSolutions--Tatami-NagReport.csv",
        "AwsSolutions--TatamiMonitoring-NagReport.csv",
    ]
    report = [line for path in reports for line in path.read_text().splitlines()]
    suppressed = [line for line in report if ',"Suppressed",' in line]
    assert suppressed, "the report lists the suppressions"
    for line in suppressed:
        reason = line.split('"Suppressed","', 1)[1].split('"', 1)[0]
        assert len(reason) > 20, line
