"""`tatami console`: the console for a deployed stack, on loopback, calling AWS with your credentials.

The local cloud serves the same page itself (`make run` prints its URL, .../console).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import boto3
import click

from tatami.console import CONSOLE_PATH, Console
from tatami.console.deployed import DeployedSource, SigningProxy, console_server
from tatami.target import TargetError, aws_target, current_stage
from tatami_functions.stack_outputs import OUTPUT_API_URL, stack_name


@click.command("console")
@click.option("--port", default=3100, show_default=True, help="Port on 127.0.0.1 to serve the console on.")
@click.option(
    "--stack", help="The deployed stack's name (default: Tatami, or Tatami-NAME after `tatami --stage NAME`)."
)
@click.option(
    "--outputs-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The stack's outputs as `cdk deploy --outputs-file` writes them (default: ask CloudFormation).",
)
def console(port: int, stack: str | None, outputs_file: Path | None) -> None:
    """Serve the console for the deployed stack on http://127.0.0.1:PORT/console.

    Every call the page makes to the API is signed with your AWS credentials (SigV4); tables are read
    with them too. Nothing listens beyond loopback. Ctrl-C stops it.
    """
    stack = stack or stack_name(current_stage())
    try:
        outputs = _outputs(outputs_file, stack) if outputs_file else aws_target(stack).outputs
    except TargetError as exc:
        raise click.ClickException(str(exc)) from None
    if OUTPUT_API_URL not in outputs:
        raise click.ClickException(f"stack {stack}'s outputs have no {OUTPUT_API_URL}: is it deployed?")
    session = boto3.Session()
    try:
        forward = SigningProxy(outputs[OUTPUT_API_URL], session)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    server = console_server(Console(DeployedSource(stack, outputs, session)), forward, port)
    server.start()
    url = f"{server.url}{CONSOLE_PATH}"
    click.echo(f"console for stack {stack} on {url} (API calls signed for {outputs[OUTPUT_API_URL]})")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.stop()
        click.echo("stopped")


def _outputs(path: Path, stack: str) -> dict[str, str]:
    """`cdk deploy --outputs-file` writes {stack: {key: value}}; a flat {key: value} is taken as it is."""
    found = json.loads(path.read_text())
    nested = found.get(stack)
    return {str(k): str(v) for k, v in (nested if isinstance(nested, dict) else found).items()}
