"""The `tatami` command: one click group; each subcommand lives in tatami/commands/<name>.py."""

from __future__ import annotations

import click

from tatami.commands import COMMANDS
from tatami_functions.stack_outputs import stack_name


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tatami")
@click.option(
    "--stage",
    envvar="TATAMI_STAGE",
    metavar="NAME",
    help="Act on the stack deployed with `-c stage=NAME` (Tatami-NAME) instead of Tatami.",
)
def main(stage: str | None) -> None:
    """tatami: DynamoDB's hard patterns, deployable with CDK and runnable locally."""
    if stage:
        try:
            stack_name(stage)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--stage") from None


for _command in COMMANDS:
    main.add_command(_command)
