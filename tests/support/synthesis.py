"""The synthesized app as template tests see it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from infra import constants
from infra.app import create_app


@dataclass(frozen=True)
class Synthesized:
    cdk_out: Path
    template: dict[str, Any]
    metadata: dict[str, list[dict[str, Any]]]

    def resources(self, resource_type: str) -> dict[str, dict[str, Any]]:
        return {k: v for k, v in self.template["Resources"].items() if v["Type"] == resource_type}


def synthesize(cdk_out: Path) -> Synthesized:
    create_app(outdir=str(cdk_out)).synth()
    template = json.loads((cdk_out / f"{constants.STACK_NAME}.template.json").read_text())
    metadata = json.loads((cdk_out / f"{constants.STACK_NAME}.metadata.json").read_text())
    return Synthesized(cdk_out, template, metadata)
