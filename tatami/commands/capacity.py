"""`tatami capacity`: would this workload throttle in AWS? DynamoDB's partitions, simulated locally.

A thin shell over `tatami.capacity`: read the workload, build the table, run it at several hash
seeds and readings of what AWS leaves open, print the main run and every figure as a range.
"""

from __future__ import annotations

from pathlib import Path

import click

from tatami.capacity.adapters import seed003
from tatami.capacity.model.choices import CHOICE_SOURCES
from tatami.capacity.model.limits import SOURCES, Limits
from tatami.capacity.reports.ranges import sweep
from tatami.capacity.workloads.builders import ORDERS, EncodedKeys, Setting, keys_workload
from tatami.capacity.workloads.csv_keys import KeyFileError, read_keys
from tatami.commands.capacity_options import Output, Runs, show, table_options
from tatami.commands.capacity_requests import counters_command, mix_command, reads_command

__all__ = ["capacity"]


@click.group("capacity")
def capacity() -> None:
    """Simulate DynamoDB's partitions: throttling, hot keys and splits, before deploying.

    Pure Python and deterministic for a --seed: no AWS account, no call. Every constant is AWS's
    documented value (`tatami capacity limits`) and can be overridden with --limit; what AWS
    leaves open is run every way (--assume), so figures are ranges.
    """


@capacity.command("csv")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--key", "key_column", required=True, help="The column holding the partition key.")
@click.option("--sort-key", "sort_column", help="The column holding the sort key, if any.")
@click.option("--order", type=click.Choice(ORDERS), default="file", show_default=True, help="Write order.")
@click.option("--item-bytes", type=click.IntRange(1, 400 * 1024), default=100, show_default=True)
@click.option("--workers", type=click.IntRange(1, 256), default=1, show_default=True, help="Writer threads.")
@click.option(
    "--gsi-key",
    "gsi_column",
    help="The column holding each item's partition key in a global secondary index (projecting the item).",
)
@table_options
def csv_command(
    file: Path,
    key_column: str,
    sort_column: str | None,
    order: str,
    item_bytes: int,
    workers: int,
    gsi_column: str | None,
    setting: Setting,
    runs: Runs,
    output: Output,
) -> None:
    """Load one item per row of FILE (CSV with a header) as a bulk loader would, and see it throttle.

    WORKERS threads share one SDK client and write batches of 25 (boto3's batch_writer: unprocessed
    items go out again with the next batch). --order export: as a Scan of the same table exported
    them (partition by partition), to see a reload in that order.
    """
    try:
        keys = EncodedKeys.of(read_keys(file, key_column, sort_column))  # encoded once for every run
        index = [key for key, _ in read_keys(file, gsi_column)] if gsi_column else None
    except KeyFileError as exc:
        raise click.ClickException(str(exc)) from None
    name = f"{file.name} ({order} order, {workers} writer{'s' if workers > 1 else ''})"
    build = lambda chosen: keys_workload(name, keys, chosen, item_bytes, order, workers, gsi_keys=index)  # noqa: E731
    show(sweep(build, setting, runs.seeds, runs.assume), output)


@capacity.command("seed003")
@click.option(
    "--seeds",
    type=click.IntRange(1, 50),
    default=3,
    show_default=True,
    help="Hash seeds per load and reading.",
)
def seed003_command(seeds: int) -> None:
    """Seed 003's four loads through the model, measured as the seed measured them, beside its figures.

    Each load runs at every reading of what AWS leaves open and the seed's loader's latency range,
    with SEEDS hash seeds: figures are the median and the range over those runs.
    """
    results = [seed003.ranges(load, seeds) for load in seed003.LOADS]
    click.echo(seed003.table(results))


@capacity.command("limits")
def limits_command() -> None:
    """The model's constants, their values and the public source of each; then the open choices."""
    limits = Limits()
    for name, (source, says) in SOURCES.items():
        click.echo(f"{name} = {getattr(limits, name):g}\n    {says}\n    {source}")
    click.echo("\nwhat AWS leaves open (--assume runs each reading):")
    for name, readings in CHOICE_SOURCES.items():
        for source, says in readings:
            click.echo(f"{name}: {says}\n    {source}")


for _command in (counters_command, reads_command, mix_command):
    capacity.add_command(_command)
