"""Subcommands of `tatami`; add one module per command and list it here."""

from __future__ import annotations

import click

from tatami.commands.capacity import capacity
from tatami.commands.console import console
from tatami.commands.doctor import doctor
from tatami.commands.export import export
from tatami.commands.load_ip import load_ip
from tatami.commands.local import local
from tatami.commands.olap import olap
from tatami.commands.scan import scan
from tatami.commands.zindex import zindex

COMMANDS: list[click.Command] = [local, load_ip, export, olap, scan, zindex, doctor, capacity, console]
