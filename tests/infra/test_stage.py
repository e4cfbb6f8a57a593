"""A stage (`-c stage=dev`) names the stacks and every account-unique physical name after it (alarm
and dashboard names follow the stack's), so two stages live in one account and region; without one
the names stay those of deployed stacks."""

from __future__ import annotations

import pytest

from infra.app import create_app
from tatami.local.template.assembly import read_stacks
from tests.support.synthesis import Synthesized

# The only names the template sets itself; everything else is named by CloudFormation per stack.
UNIQUE_NAMES = {"AWS::Glue::Database": ("DatabaseInput", "Name"), "AWS::Athena::WorkGroup": ("Name",)}


def physical_names(synthesized: Synthesized) -> dict[str, str]:
    names = {}
    for resource_type, path in UNIQUE_NAMES.items():
        (resource,) = synthesized.resources(resource_type).values()
        value = resource["Properties"]
        for key in path:
            value = value[key]
        names[resource_type] = value
    return names


def test_without_a_stage_the_names_are_those_deployed_stacks_have(synthesized: Synthesized) -> None:
    assert physical_names(synthesized) == {
        "AWS::Glue::Database": "tatami_olap",
        "AWS::Athena::WorkGroup": "tatami-olap",
    }


def test_a_stage_names_the_stack_and_its_catalog(operated: Synthesized) -> None:
    """`-c stage=prod` (synthesized once for the cross-stage tests)."""
    assert {stack.name for stack in read_stacks(operated.cdk_out)} == {"Tatami-prod", "Tatami-prodMonitoring"}
    assert physical_names(operated) == {
        "AWS::Glue::Database": "tatami_prod_olap",
        "AWS::Athena::WorkGroup": "tatami-prod-olap",
    }


def test_a_stage_that_cannot_name_a_stack_fails_synthesis() -> None:
    with pytest.raises(ValueError, match="stage 'Dev_1'"):
        create_app(context={"stage": "Dev_1"})
