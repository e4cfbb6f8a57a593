"""`tatami export [--local] [--table KEY ...] [--incremental|--auto] [--wait]`: export tables to S3 now.

It asks DynamoDB for point-in-time exports (what the hourly schedule does) and, with --wait, waits
for them and points the Glue tables at the new data. Locally the same calls are answered by the
local cloud's stand-in for the export API (`tatami.local.engines.exports`: a parallel scan into the
local S3, done when the call returns), so `--local` always waits.
"""

from __future__ import annotations

import json
import time
import uuid

import click
from tqdm import tqdm

from tatami.local.engines import exports as local_exports
from tatami.target import Target, TargetError, resolve_target
from tatami_functions.olap.exceptions import OlapError
from tatami_functions.olap.exports import COMPLETED, FULL, RUNNING
from tatami_functions.olap.repository import OlapRepository
from tatami_functions.olap.service import ExportOutcome, publish, run_aws
from tatami_functions.olap.settings import ExportSettings
from tatami_functions.stack_outputs import OUTPUT_OLAP_BUCKET, OUTPUT_OLAP_DATABASE, OUTPUT_OLAP_TABLES

WAIT_POLL_SECONDS = 15.0


def settings_of(target: Target) -> ExportSettings:
    """The export's settings from the stack outputs (the function reads the same from its environment)."""
    return ExportSettings(
        tables=json.loads(target.output(OUTPUT_OLAP_TABLES)),
        bucket=target.output(OUTPUT_OLAP_BUCKET),
        database=target.outputs.get(OUTPUT_OLAP_DATABASE, ""),
    )


@click.command("export")
@click.option("--local", is_flag=True, help="Export the running local cloud's tables (and wait for them).")
@click.option(
    "--table",
    "tables",
    multiple=True,
    metavar="KEY",
    help="Only this table (repeatable): its stack output's name in snake case, e.g. orders, forums.",
)
@click.option(
    "--kind",
    type=click.Choice(["full", "incremental", "auto"]),
    default="full",
    show_default=True,
    help="incremental: changes since the newest export (AWS only); auto: what the schedule would do.",
)
@click.option("--wait", is_flag=True, help="AWS: wait for the exports, then point Athena at them.")
@click.option(
    "--segments",
    default=4,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Local export's scan threads.",
)
@click.option("--no-progress", is_flag=True, help="No progress bars.")
def export(
    local: bool, tables: tuple[str, ...], kind: str, wait: bool, segments: int, no_progress: bool
) -> None:
    """Export tables to S3 for analytics (Athena in AWS, `tatami olap --local` here).

    Each table lands under exports/<table>/AWSDynamoDB/<export id>/ in the OLAP bucket: data/*.json.gz
    (one DynamoDB JSON item per line), manifest-files.json and manifest-summary.json. A rerun makes a
    new export; readers use the newest complete one.
    """
    try:
        target = resolve_target(local)
        settings = settings_of(target).select(tables)
        if target.is_local:
            with tqdm(unit=" items", desc="export", disable=no_progress, leave=False) as bar:
                dynamodb = local_exports.attach(
                    target.client("dynamodb"), target.client, segments, bar.update
                )
                aws = OlapRepository.of(dynamodb, target.client("s3"), target.client("glue"))
                outcomes = _export(aws, settings, kind, True)
        else:
            aws = OlapRepository.of(target.client("dynamodb"), target.client("s3"), target.client("glue"))
            outcomes = _export(aws, settings, kind, wait)
    except (OlapError, TargetError) as exc:
        raise click.ClickException(str(exc)) from None
    for outcome in outcomes:
        click.echo(outcome.line())
    if any(outcome.action == "failed" for outcome in outcomes):
        raise click.ClickException("some exports failed (see above)")


def _export(aws: OlapRepository, settings: ExportSettings, kind: str, wait: bool) -> list[ExportOutcome]:
    outcomes = run_aws(settings, aws, kind=kind, seed=f"cli-{uuid.uuid4()}")
    if wait:
        for outcome in outcomes:
            if outcome.export_arn:
                _wait(aws, settings, outcome)
    return outcomes


def _wait(aws: OlapRepository, settings: ExportSettings, outcome: ExportOutcome) -> None:
    """Poll until the export ends; a finished full export becomes what Athena reads."""
    assert outcome.export_arn is not None
    started = time.monotonic()
    record = aws.exports.describe(outcome.export_arn)
    while record.status == RUNNING:
        click.echo(f"{outcome.table}: running for {time.monotonic() - started:,.0f} s ...", err=True)
        time.sleep(WAIT_POLL_SECONDS)
        record = aws.exports.describe(outcome.export_arn)
    outcome.seconds = time.monotonic() - started
    if record.status != COMPLETED:
        outcome.action, outcome.reason = "failed", record.failure or record.status
        return
    outcome.items = record.item_count
    if record.kind == FULL:
        outcome.published = publish(aws, settings, outcome.table, record)
