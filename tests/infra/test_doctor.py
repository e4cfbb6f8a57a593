"""`tatami doctor` passes on the app and fails, naming the cause, on deliberately broken copies of it
(a layer or an environment variable taken away, a grant taken away or added, a mapping setting gone)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tatami.doctor import ASSEMBLY_CHECKS, Finding
from tatami.local.template.assembly import load_assembly
from tatami_functions.ip_lookup.settings import LookupSettings
from tests.support.synthesis import Synthesized
from tests.support.templates import Template, copy_assembly, drop_layer, drop_variable, revoke, widen

RANGES_TABLE = LookupSettings.name_of("table")


def findings(cdk_out: Path, only: str | None = None) -> list[Finding]:
    """The assembly checks (cdk-nag and cfn-lint run on the real app in `make check-deploy`)."""
    assembly = load_assembly(cdk_out)
    return [f for name, check in ASSEMBLY_CHECKS if only in (None, name) for f in check(assembly)]


def test_the_app_has_no_findings(synthesized: Synthesized) -> None:
    """Among them: no function is granted an action its code never calls, nor calls one it is not granted."""
    assert [f.line() for f in findings(synthesized.cdk_out)] == []


def test_one_extra_and_one_missing_action_are_both_named(synthesized: Synthesized, tmp_path: Path) -> None:
    broken = copy_assembly(
        synthesized.cdk_out,
        tmp_path / "cdk.out",
        revoke("IpLookupLookupFunction", "dynamodb:Query"),
        widen("PlacesApiFunction", beside="dynamodb:UpdateItem", extra="dynamodb:DeleteItem"),
    )
    lines = [f.line() for f in findings(broken, "grants")]
    assert len(lines) == 2, lines
    missing, extra = sorted(lines)
    assert missing.startswith("grant    IpLookupLookupFunction")
    assert f"calls dynamodb:Query on IpLookupRanges2635993E ({RANGES_TABLE})" in missing
    assert "repository.py:" in missing and missing.endswith("which its role is not granted")
    assert extra.startswith("grant    PlacesApiFunction")
    assert extra.endswith("is granted dynamodb:DeleteItem on PlacesTable410DAFB6, which its code never calls")


def drop_batch_failures(function_prefix: str) -> Callable[[Template], None]:
    def change(template: Template) -> None:
        for resource in template["Resources"].values():
            props = resource.get("Properties", {})
            # The function's own Ref, or its alias's inside the qualified name CDK writes.
            name = json.dumps(props.get("FunctionName"))
            if resource["Type"] == "AWS::Lambda::EventSourceMapping" and f'"{function_prefix}' in name:
                props.pop("FunctionResponseTypes")

    return change


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            drop_layer("PlacesApiFunction", "LayersZorder"),
            ("import   PlacesApiFunction", "imports 'zorder', in neither its asset nor its layers"),
        ),
        (
            drop_variable("IpLookupLookupFunction", RANGES_TABLE),
            (
                "env      IpLookupLookupFunction",
                f"its code reads {RANGES_TABLE}, which the template does not set",
            ),
        ),
        (
            revoke("ReplicationLabFunction", "dynamodb:PutItem"),
            ("grant    ReplicationLabFunction", "calls dynamodb:PutItem on ReplicationLabReplica"),
        ),
        (
            widen("CountersReadFunction", beside="dynamodb:BatchGetItem", extra="dynamodb:UpdateItem"),
            ("grant    CountersReadFunction", "granted dynamodb:UpdateItem on CountersShards"),
        ),
        (
            revoke("ReplicationLabFunction", "dynamodb:GetRecords"),
            ("stream   ReplicationLabFunction", "its role may not dynamodb:GetRecords on arn:aws:dynamodb:"),
        ),
        (
            drop_batch_failures("ReplicationLabFunction"),
            (
                "stream   ReplicationLabFunction",
                "returns batchItemFailures; the mapping lacks ReportBatchItemFailures",
            ),
        ),
    ],
    ids=[
        "missing layer",
        "missing env var",
        "missing grant",
        "a write the reader never makes",
        "stream read",
        "partial",
    ],
)
def test_a_broken_copy_fails_naming_the_cause(
    synthesized: Synthesized,
    tmp_path: Path,
    change: Callable[[Template], None],
    expected: tuple[str, str],
) -> None:
    check = {"import": "imports", "env": "environment", "grant": "grants", "stream": "streams"}[
        expected[0].split()[0]
    ]
    lines = [
        f.line() for f in findings(copy_assembly(synthesized.cdk_out, tmp_path / "cdk.out", change), check)
    ]
    assert any(all(part in line for part in expected) for line in lines), lines
