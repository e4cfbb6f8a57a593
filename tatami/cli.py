"""The `tatami` command: one click group; each subcommand lives in tatami/commands/<name>.py."""

from __future__ import annotations

import click

from tatami.commands import COMMANDS


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tatami")
def main() -> None:
    """tatami: DynamoDB's hard patterns, deployable with CDK and runnable locally."""


for _command in COMMANDS:
    main.add_command(_command)
