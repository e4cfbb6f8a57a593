"""Subcommands of `tatami`; add one module per command and list it here."""

from __future__ import annotations

import click

from tatami.commands.local import local
from tatami.commands.zplan import zplan

COMMANDS: list[click.Command] = [local, zplan]
