"""Subcommands of `tatami`; add one module per command and list it here."""

from __future__ import annotations

import click

from tatami.commands.local import local

COMMANDS: list[click.Command] = [local]
