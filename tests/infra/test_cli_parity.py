"""`npx cdk synth` (what `cdk deploy` deploys) and `create_app()` (what the local cloud and the tests
synthesize) must produce the same resources: local and deployed can never drift."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tatami_functions import stack_outputs
from tests.support.synthesis import MONITORING_STACK, Synthesized

REPO = Path(__file__).resolve().parents[2]


def _comparable(template: dict[str, Any]) -> dict[str, Any]:
    """Resources without the metadata the CLI adds (construct paths, asset paths, CDK version).

    API Gateway deployments get a logical id hashed over the API's construct tree, metadata
    included, so the CLI's differs; their properties and everything else must match."""
    deployments = [k for k, r in template["Resources"].items() if r["Type"] == "AWS::ApiGateway::Deployment"]
    text = json.dumps(template["Resources"])
    for number, logical_id in enumerate(deployments):
        text = text.replace(logical_id, f"ApiDeployment{number}")
    return {
        logical_id: {key: value for key, value in resource.items() if key != "Metadata"}
        for logical_id, resource in json.loads(text).items()
        if resource["Type"] != "AWS::CDK::Metadata"
    }


@pytest.mark.slow
def test_cdk_cli_synthesizes_the_same_resources(synthesized: Synthesized, tmp_path: Path) -> None:
    env = {**os.environ, "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION": "20"}
    result = subprocess.run(
        ["npx", "--no-install", "cdk", "synth", "--quiet", "--output", str(tmp_path)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    cli_template = json.loads((tmp_path / f"{stack_outputs.STACK_NAME}.template.json").read_text())
    assert _comparable(cli_template) == _comparable(synthesized.template)
    cli_monitoring = json.loads((tmp_path / f"{MONITORING_STACK}.template.json").read_text())
    assert _comparable(cli_monitoring) == _comparable(synthesized.monitoring)
