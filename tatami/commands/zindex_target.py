"""Which indexed table a `tatami zindex` command acts on: found in the stack's outputs (each
``<Name>ZIndex`` output holds a table's declaration), so a new indexed table needs no change here."""

from __future__ import annotations

from typing import Any

import click

from tatami.target import Target, TargetError, indexed_tables, resolve_target
from zindex.dynamodb import IndexRepository

LOCAL_HELP = "Act on the running local cloud instead of the deployed stack."
TABLE_HELP = "The indexed table (its stack output <Name>ZIndex), e.g. places or orders."


def open_table(local: bool, name: str) -> tuple[Target, IndexRepository]:
    try:
        target = resolve_target(local)
    except TargetError as exc:
        raise click.ClickException(str(exc)) from None
    tables = indexed_tables(target.outputs)
    if name not in tables:
        raise click.ClickException(f"no indexed table {name!r} on {target.name}; it has {sorted(tables)}")
    return target, IndexRepository(tables[name], target.client("dynamodb"))


def table_options(command: Any) -> Any:
    """``--local`` and ``--table`` on a command."""
    command = click.option("--table", "table_name", default="places", show_default=True, help=TABLE_HELP)(
        command
    )
    return click.option("--local", is_flag=True, help=LOCAL_HELP)(command)
