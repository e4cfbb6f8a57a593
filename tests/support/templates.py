"""Deliberately changed copies of a synthesized app: one grant, layer or variable taken away.

`copy_assembly` copies a cloud assembly (the asset folders are linked, not copied) and lets a
function change the service stack's template in memory before it is written; the helpers below are
such changes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

Template = dict[str, Any]
STACK_TEMPLATE = "Tatami.template.json"


def copy_assembly(cdk_out: Path, target: Path, *changes: Callable[[Template], None]) -> Path:
    target.mkdir(parents=True)
    for entry in cdk_out.iterdir():
        if entry.is_dir():
            (target / entry.name).symlink_to(entry.resolve())
        elif entry.name == STACK_TEMPLATE:  # the service stack (the monitoring stack is copied as is)
            template = json.loads(entry.read_text())
            for change in changes:
                change(template)
            (target / entry.name).write_text(json.dumps(template))
        else:
            (target / entry.name).write_bytes(entry.read_bytes())
    return target


def function_id(template: Template, prefix: str) -> str:
    (found,) = [
        k
        for k, r in template["Resources"].items()
        if r["Type"] == "AWS::Lambda::Function" and k.startswith(prefix)
    ]
    return found


def revoke(function_prefix: str, action: str) -> Callable[[Template], None]:
    """Remove `action` from every policy statement attached to the role of the function."""

    def change(template: Template) -> None:
        resources = template["Resources"]
        role = resources[function_id(template, function_prefix)]["Properties"]["Role"]["Fn::GetAtt"][0]
        removed = 0
        for resource in resources.values():
            props = resource.get("Properties", {})
            if resource["Type"] != "AWS::IAM::Policy" or {"Ref": role} not in props.get("Roles", []):
                continue
            for statement in props["PolicyDocument"]["Statement"]:
                actions = (
                    statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
                )
                removed += action in actions
                statement["Action"] = [a for a in actions if a != action] or ["none:NoAction"]
        assert removed, f"{function_prefix} was not granted {action}"

    return change


def drop_layer(function_prefix: str, layer_prefix: str) -> Callable[[Template], None]:
    def change(template: Template) -> None:
        props = template["Resources"][function_id(template, function_prefix)]["Properties"]
        before = len(props["Layers"])
        props["Layers"] = [
            layer for layer in props["Layers"] if not str(layer.get("Ref", "")).startswith(layer_prefix)
        ]
        assert len(props["Layers"]) < before

    return change


def drop_variable(function_prefix: str, variable: str) -> Callable[[Template], None]:
    def change(template: Template) -> None:
        props = template["Resources"][function_id(template, function_prefix)]["Properties"]
        del props["Environment"]["Variables"][variable]

    return change
