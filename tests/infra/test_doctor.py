"""`tatami doctor` passes on the app and fails, naming the cause, on deliberately broken copies of it
(a layer, an environment variable, a grant or a mapping setting taken away)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tatami.doctor import ASSEMBLY_CHECKS, Finding
from tatami.local.assembly import load_assembly
from tatami_functions.ip_lookup.settings import LookupSettings
from tests.support.synthesis import Synthesized
from tests.support.templates import Template, copy_assembly, drop_layer, drop_variable, revoke

RANGES_TABLE = LookupSettings.name_of("table")


def findings(cdk_out: Path, only: str | None = None) -> list[Finding]:
    """The assembly checks (cdk-nag and cfn-lint run on the real app in `make check-deploy`)."""
    assembly = load_assembly(cdk_out)
    return [f for name, check in ASSEMBLY_CHECKS if only in (None, name) for f in check(assembly)]


def test_the_app_has_no_findings(synthesized: Synthesized) -> None:
    assert [f.line() for f in findings(synthesized.cdk_out)] == []


def drop_batch_failures(function_prefix: str) -> Callable[[Template], None]:
    def change(template: Template) -> None:
        for resource in template["Resources"].values():
            props = resource.get("Properties", {})
            name = str(props.get("FunctionName", {}).get("Ref", ""))
            if resource["Type"] == "AWS::Lambda::EventSourceMapping" and name.startswith(function_prefix):
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
            revoke("IpLookupLookupFunction", "dynamodb:Query"),
            None,  # GetItem is still granted: the function may call something on the table
        ),
        (
            revoke("ReplicationLabFunction", "dynamodb:PutItem"),
            ("grant    ReplicationLabFunction", "names ReplicationLabReplica"),
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
    ids=["missing layer", "missing env var", "one of two reads", "missing grant", "stream read", "partial"],
)
def test_a_broken_copy_fails_naming_the_cause(
    synthesized: Synthesized,
    tmp_path: Path,
    change: Callable[[Template], None],
    expected: tuple[str, str] | None,
) -> None:
    check = {"import": "imports", "env": "environment", "grant": "grants", "stream": "streams"}[
        expected[0].split()[0] if expected else "grant"
    ]
    lines = [
        f.line() for f in findings(copy_assembly(synthesized.cdk_out, tmp_path / "cdk.out", change), check)
    ]
    if expected is None:
        assert lines == []
    else:
        assert any(all(part in line for part in expected) for line in lines), lines
