"""A stage (`-c stage=dev`) names the stacks and every account-unique physical name after it (alarm
and dashboard names follow the stack's), so two stages live in one account and region; without one
the names stay those of deployed stacks."""

from __future__ import annotations

import pytest
from aws_cdk import Stack

from infra.app import create_app
from infra.services.olap import OlapService
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


def test_a_stage_names_the_stack_and_its_catalog() -> None:
    app = create_app(context={"stage": "dev"})  # the construct tree only: synthesis is the slow part
    stack, monitoring = [child for child in app.node.children if isinstance(child, Stack)]
    assert (stack.stack_name, monitoring.stack_name) == ("Tatami-dev", "Tatami-devMonitoring")
    olap = stack.node.find_child("Olap")
    assert isinstance(olap, OlapService)
    assert (olap.catalog.database_name, olap.catalog.work_group_name) == (
        "tatami_dev_olap",
        "tatami-dev-olap",
    )


def test_a_stage_that_cannot_name_a_stack_fails_synthesis() -> None:
    with pytest.raises(ValueError, match="stage 'Dev_1'"):
        create_app(context={"stage": "Dev_1"})
