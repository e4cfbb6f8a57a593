"""`tatami doctor`: will what the local cloud runs also work after `cdk deploy`? Checked from cdk.out.

For example (not run as a doctest)::

    for finding in diagnose(Path("cdk.out")):
        print(finding.line())
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from cfnlint.api import ManualArgs, lint_file

from tatami.doctor.alarms import check_alarms
from tatami.doctor.checks import Finding, check_environment, check_imports
from tatami.doctor.deployments import check_deployments
from tatami.doctor.grants import check_grants
from tatami.doctor.streams import check_streams
from tatami.local.template.assembly import Assembly, load_assembly

# CDK adds DependsOn for the function's own role although Role already references it.
CFN_LINT_IGNORED = ["W3005"]
LINT_REGIONS = ["us-east-1"]
ASSEMBLY_CHECKS: list[tuple[str, Callable[[Assembly], list[Finding]]]] = [
    ("alarms", check_alarms),
    ("imports", check_imports),
    ("environment", check_environment),
    ("grants", check_grants),
    ("streams", check_streams),
    ("deployments", check_deployments),
]


def check_lint(cdk_out: Path) -> list[Finding]:
    findings = []
    for template in sorted(cdk_out.glob("*.template.json")):
        for match in lint_file(template, ManualArgs(ignore_checks=CFN_LINT_IGNORED, regions=LINT_REGIONS)):
            findings.append(Finding("cfn-lint", template.name, str(match)))
    return findings


def check_nag(cdk_out: Path) -> list[Finding]:
    """cdk-nag's validation report: every AwsSolutions rule compliant or acknowledged with a reason.

    A violation fails synthesis, so it is found here only in an assembly whose synthesis failed.
    """
    report = cdk_out / "validation-report.json"
    if not report.is_file():
        return [Finding("cdk-nag", cdk_out.name, "no validation-report.json: cdk-nag did not run on it")]
    return [
        Finding("cdk-nag", construct["constructPath"], f"{violation['ruleName']}: {violation['description']}")
        for plugin in json.loads(report.read_text())["pluginReports"]
        for violation in plugin["violations"]
        for construct in violation["violatingConstructs"]
    ]


def diagnose(cdk_out: Path, assembly: Assembly | None = None) -> list[Finding]:
    """Every finding, sorted; `assembly` lets tests pass a deliberately broken copy of the app."""
    assembly = assembly or load_assembly(cdk_out)
    findings = [finding for _, check in ASSEMBLY_CHECKS for finding in check(assembly)]
    return sorted(findings + check_nag(cdk_out) + check_lint(cdk_out))


__all__ = ["Finding", "diagnose"]
