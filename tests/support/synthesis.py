"""The synthesized app as template tests see it, and the questions several of them ask of it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from infra.app import cdk_json_context, create_app
from infra.stacks.monitoring_stack import monitoring_stack_name
from tatami.local.template.assembly import Stack, invoked, read_stacks
from tatami_functions import stack_outputs

MONITORING_STACK = monitoring_stack_name(stack_outputs.STACK_NAME)


@dataclass(frozen=True)
class Synthesized:
    cdk_out: Path
    template: dict[str, Any]
    metadata: dict[str, list[dict[str, Any]]]
    monitoring: dict[str, Any]  # the monitoring stack's template
    name: str = stack_outputs.STACK_NAME  # the service stack's

    def stack(self) -> Stack:
        """The service stack as the local cloud reads it (its routes, its functions)."""
        return self._stack

    @cached_property
    def _stack(self) -> Stack:
        (stack,) = [stack for stack in read_stacks(self.cdk_out) if stack.name == stack_outputs.STACK_NAME]
        return stack

    def invoked_function(self, reference: object) -> str | None:
        """The function a mapping's FunctionName or an integration's URI invokes, through its alias or
        not (`tatami.local.template.assembly.invoked`)."""
        found = invoked(self.stack(), reference)
        return found[0] if found else None

    def resources(self, resource_type: str) -> dict[str, dict[str, Any]]:
        return {k: v for k, v in self.template["Resources"].items() if v["Type"] == resource_type}

    def logical_id(self, output_key: str) -> str:
        """The resource a stack output names (the outputs are `Ref`s)."""
        return str(self.template["Outputs"][output_key]["Value"]["Ref"])

    def function(self, handler: str) -> tuple[str, dict[str, Any]]:
        """The one function whose handler is `handler`: (logical ID, properties)."""
        (found,) = [
            (logical_id, resource["Properties"])
            for logical_id, resource in self.resources("AWS::Lambda::Function").items()
            if resource["Properties"]["Handler"] == handler
        ]
        return found

    def table(self, output_key: str) -> dict[str, Any]:
        """The properties of the table a stack output names (a TableV2: a GlobalTable)."""
        resource = self.template["Resources"][self.logical_id(output_key)]
        assert resource["Type"] == "AWS::DynamoDB::GlobalTable"
        return dict(resource["Properties"])


def synthesize(cdk_out: Path, context: dict[str, Any] | None = None) -> Synthesized:
    """The app synthesized into `cdk_out`; `context` adds to cdk.json's (`stage`, `tatami` settings)."""
    create_app(outdir=str(cdk_out), context=context).synth()
    name = stack_outputs.stack_name((context or {}).get("stage"))
    template = json.loads((cdk_out / f"{name}.template.json").read_text())
    metadata: dict[str, list[dict[str, Any]]] = {}
    for stack in (name, monitoring_stack_name(name)):
        metadata.update(json.loads((cdk_out / f"{stack}.metadata.json").read_text()))
    monitoring = json.loads((cdk_out / f"{monitoring_stack_name(name)}.template.json").read_text())
    return Synthesized(cdk_out, template, metadata, monitoring, name)


def operated_stage_context(stage: str = "prod") -> dict[str, Any]:
    """The context of a stage someone operates: cdk.json's settings with an alarm destination and a
    runbook URL, which such a stage cannot synthesize without."""
    settings = {
        **cdk_json_context()["tatami"],
        "alarmEmail": "oncall@example.com",
        "runbookUrl": "https://git.example.com/tatami/blob/main/docs/runbook.md",
    }
    return {"stage": stage, "tatami": settings}


def keys(schema: list[dict[str, str]]) -> list[tuple[str, str]]:
    """A KeySchema as (attribute, HASH | RANGE) pairs.

    >>> keys([{"AttributeName": "PK", "KeyType": "HASH"}])
    [('PK', 'HASH')]
    """
    return [(part["AttributeName"], part["KeyType"]) for part in schema]


def indexes(properties: dict[str, Any]) -> dict[str, tuple[list[tuple[str, str]], dict[str, Any]]]:
    """A table's GSIs: name -> (its keys, its projection)."""
    return {
        index["IndexName"]: (keys(index["KeySchema"]), index["Projection"])
        for index in properties.get("GlobalSecondaryIndexes", [])
    }
