"""`tatami --stage NAME` (or TATAMI_STAGE) finds the outputs of the stack deployed with `-c stage=NAME`
(CloudFormation on moto: two stages' stacks side by side in one account and region)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import boto3
import click
import pytest
from click.testing import CliRunner

from tatami.cli import main
from tatami.target import resolve_target
from tatami_functions.stack_outputs import OUTPUT_API_URL, stack_name
from tests.support.lambda_runtime import moto_environment


def _stack(url: str) -> str:
    return json.dumps(
        {
            "Resources": {"Queue": {"Type": "AWS::SQS::Queue"}},
            "Outputs": {OUTPUT_API_URL: {"Value": url}},
        }
    )


@pytest.fixture
def two_stages() -> Iterator[None]:
    with moto_environment({"AWS_DEFAULT_REGION": "eu-west-1"}):
        cloudformation = boto3.client("cloudformation")
        for stage in (None, "dev"):
            url = f"https://{stage or 'default'}.example/v1/"
            cloudformation.create_stack(StackName=stack_name(stage), TemplateBody=_stack(url))
        yield


@click.command()
def api_url() -> None:
    target = resolve_target(local=False)
    click.echo(f"{target.name} {target.output(OUTPUT_API_URL)}")


@pytest.mark.usefixtures("two_stages")
@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        ([], {}, "Tatami https://default.example/v1/"),
        (["--stage", "dev"], {}, "Tatami-dev https://dev.example/v1/"),
        ([], {"TATAMI_STAGE": "dev"}, "Tatami-dev https://dev.example/v1/"),
    ],
    ids=["no stage", "--stage", "TATAMI_STAGE"],
)
def test_the_stage_names_the_stack_the_cli_reads(args: list[str], env: dict[str, str], expected: str) -> None:
    main.add_command(api_url)
    try:
        result = CliRunner().invoke(main, [*args, "api-url"], env=env)
    finally:
        main.commands.pop("api-url")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == expected


def test_a_bad_stage_is_refused_naming_the_option() -> None:
    result = CliRunner().invoke(main, ["--stage", "Dev_1", "doctor", "--help"])
    assert result.exit_code == 2
    assert "--stage" in result.output and "lowercase letters" in result.output


def test_the_console_reads_the_stages_stack(tmp_path: Path) -> None:
    """`tatami --stage dev console` serves Tatami-dev, not Tatami (here: refused, naming the stack)."""
    outputs = tmp_path / "outputs.json"
    deployed = {"Tatami": {OUTPUT_API_URL: "https://default.example/v1/"}, "Tatami-dev": {}}
    outputs.write_text(json.dumps(deployed))
    result = CliRunner().invoke(main, ["--stage", "dev", "console", "--outputs-file", str(outputs)])
    assert result.exit_code == 1
    assert f"stack Tatami-dev's outputs have no {OUTPUT_API_URL}" in result.output
