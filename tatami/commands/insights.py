"""`tatami local insights`: the local cloud's hottest keys, and would its traffic throttle at scale in AWS?

A thin shell over `tatami.capacity.adapters.insights`: find the session's record, ask DynamoDB Local for the
tables' keys, print.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import boto3
import click

from tatami.capacity.adapters.insights import analyse, describe
from tatami.capacity.adapters.traffic import read_records, schemas_from
from tatami.capacity.workloads.builders import Setting
from tatami.commands.capacity_options import Output, Runs, table_options, write_files
from tatami.local.engines import traffic
from tatami.local.engines.processes import LOCAL_CREDENTIALS
from tatami.local.state import default_work_dir, read_state
from tatami.local.template.intrinsics import LOCAL_REGION

__all__ = ["insights"]


@click.command("insights")
@click.option(
    "--scale",
    type=click.FloatRange(0, min_open=True),
    default=1.0,
    show_default=True,
    help="Replay the traffic this many times over (the same keys, that many times the rate).",
)
@click.option("--top", type=click.IntRange(1), default=5, show_default=True, help="Keys listed per table.")
@click.option("--table", "tables", multiple=True, help="Only tables whose name contains this (repeatable).")
@click.option(
    "--session",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="A recorded session folder (default: the running local cloud's, under .local/traffic).",
)
@table_options
def insights(
    scale: float,
    top: int,
    tables: tuple[str, ...],
    session: Path | None,
    setting: Setting,
    runs: Runs,
    output: Output,
) -> None:
    """List the hottest keys of the traffic the local cloud recorded, and replay it through the model.

    Every DynamoDB call of the app's functions, of the sample loaders and of `--local` commands is
    recorded with the capacity it used (like CloudWatch Contributor Insights). The replay sends the
    same calls to new tables, SCALE times over, and says what would throttle in AWS.
    """
    work_dir = default_work_dir()
    state = read_state(work_dir)
    if not state or state.get("starting"):
        raise click.ClickException(
            "no local cloud runs here: start it with `make run` (its tables' keys are read from it)"
        )
    folder = session or traffic.session_directory(work_dir, state["pid"])
    records, unreadable = read_records(folder) if folder.is_dir() else ([], 0)
    records = [r for r in records if not tables or any(t in name for t in tables for name in _tables(r))]
    if not records:
        raise click.ClickException(
            f"no DynamoDB traffic recorded in {folder} yet: use the API, then ask again"
        )
    client = boto3.client(
        "dynamodb", endpoint_url=state["dynamodb_endpoint"], region_name=LOCAL_REGION, **LOCAL_CREDENTIALS
    )
    schemas = schemas_from(client, {name for record in records for name in _tables(record)})
    click.echo(
        f"traffic recorded in {folder}" + (f" ({unreadable} unreadable lines skipped)" if unreadable else "")
    )
    found = analyse(records, schemas, setting, scale, runs.seeds, runs.assume)
    click.echo(describe(found, top))
    write_files(found.report, output)


def _tables(record: dict[str, Any]) -> set[str]:
    consumed = record.get("cc") or []
    return {entry.get("TableName", "") for entry in (consumed if isinstance(consumed, list) else [consumed])}
