"""Deliberately changed copies of a synthesized app: a grant taken away or added, a layer or variable gone.

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


def copy_assembly(
    cdk_out: Path, target: Path, *changes: Callable[[Template], None], template: str = STACK_TEMPLATE
) -> Path:
    """`changes` apply to the template file named `template` (the service stack's by default)."""
    target.mkdir(parents=True)
    for entry in cdk_out.iterdir():
        if entry.is_dir():
            (target / entry.name).symlink_to(entry.resolve())
        elif entry.name == template:  # the others are copied as they are
            changed = json.loads(entry.read_text())
            for change in changes:
                change(changed)
            (target / entry.name).write_text(json.dumps(changed))
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
        removed = 0
        for statement in _role_statements(template, function_prefix):
            actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
            removed += action in actions
            statement["Action"] = [a for a in actions if a != action] or ["none:NoAction"]
        assert removed, f"{function_prefix} was not granted {action}"

    return change


def widen(function_prefix: str, beside: str, extra: str) -> Callable[[Template], None]:
    """Add `extra` to every statement of the function's role that grants `beside` (same resources)."""

    def change(template: Template) -> None:
        widened = 0
        for statement in _role_statements(template, function_prefix):
            actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
            if beside in actions:
                statement["Action"] = [*actions, extra]
                widened += 1
        assert widened, f"{function_prefix} was not granted {beside}"

    return change


def _role_statements(template: Template, function_prefix: str) -> list[dict[str, Any]]:
    resources = template["Resources"]
    role = resources[function_id(template, function_prefix)]["Properties"]["Role"]["Fn::GetAtt"][0]
    return [
        statement
        for resource in resources.values()
        if resource["Type"] == "AWS::IAM::Policy" and {"Ref": role} in resource["Properties"].get("Roles", [])
        for statement in resource["Properties"]["PolicyDocument"]["Statement"]
    ]


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
