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
from tatami.capacity.workloads.builders import (
    ORDERS,
    Setting,
    counter_workload,
    keys_workload,
    reads_workload,
)
from tatami.capacity.workloads.csv_keys import KeyFileError, read_keys
from tatami.commands.capacity_options import Output, Runs, show, table_options

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
@table_options
def csv_command(
    file: Path,
    key_column: str,
    sort_column: str | None,
    order: str,
    item_bytes: int,
    workers: int,
    setting: Setting,
    runs: Runs,
    output: Output,
) -> None:
    """Load one item per row of FILE (CSV with a header) as a bulk loader would, and see it throttle.

    WORKERS threads share one SDK client and write batches of 25 (boto3's batch_writer: unprocessed
    items go out again with the next batch).
    """
    try:
        keys = read_keys(file, key_column, sort_column)
    except KeyFileError as exc:
        raise click.ClickException(str(exc)) from None
    name = f"{file.name} ({order} order, {workers} writer{'s' if workers > 1 else ''})"
    build = lambda chosen: keys_workload(name, keys, chosen, item_bytes, order, workers)  # noqa: E731
    show(sweep(build, setting, runs.seeds, runs.assume), output)


@capacity.command("counters")
@click.option("--name", default="votes", show_default=True, help="The counter's name (shard keys: NAME#n).")
@click.option("--target-wcu", type=click.IntRange(1), help="Size the shards with the seed's formula.")
@click.option("--safety-factor", type=click.FloatRange(1), default=1.0, show_default=True)
@click.option("--shards", type=click.IntRange(1, 1000), help="Use this many shards instead.")
@click.option("--rate", type=click.FloatRange(min=1), help="Increments per second (default: the target).")
@click.option("--minutes", type=click.FloatRange(min=0.1), default=2.0, show_default=True)
@table_options
def counters_command(
    name: str,
    target_wcu: int | None,
    safety_factor: float,
    shards: int | None,
    rate: float | None,
    minutes: float,
    setting: Setting,
    runs: Runs,
    output: Output,
) -> None:
    """Increment a write-sharded counter (seed 004) at a steady rate on random shards.

    Each increment is one UpdateItem from a caller with its own SDK client (a Lambda function),
    retried by the SDK when throttled.
    """
    from tatami_functions.counters.sharding import shards_needed

    if (target_wcu is None) == (shards is None):
        raise click.UsageError("give either --target-wcu (shards from the seed's formula) or --shards")
    count = shards or shards_needed(target_wcu or 1, safety_factor=safety_factor)
    offered = rate or float(target_wcu or count * 1000)
    click.echo(f"{name}: {count} shards, {offered:,.0f} increments/s for {minutes:g} min")
    build = lambda chosen: counter_workload(name, count, offered, minutes * 60, chosen)  # noqa: E731
    show(sweep(build, setting, runs.seeds, runs.assume), output)


@capacity.command("reads")
@click.option("--items", type=click.IntRange(1, 100_000), default=1000, show_default=True, help="Items read.")
@click.option("--rate", type=click.FloatRange(min=1), required=True, help="GetItem calls per second.")
@click.option("--item-bytes", type=click.IntRange(1, 400 * 1024), default=1000, show_default=True)
@click.option(
    "--consistent",
    is_flag=True,
    help="Strongly consistent reads (default: eventually consistent, half the units).",
)
@click.option("--minutes", type=click.FloatRange(min=0.1), default=1.0, show_default=True)
@table_options
def reads_command(
    items: int,
    rate: float,
    item_bytes: int,
    consistent: bool,
    minutes: float,
    setting: Setting,
    runs: Runs,
    output: Output,
) -> None:
    """Read ITEMS items at RATE GetItem calls a second, each one at random (--items 1: one hot item)."""
    kind = "strongly" if consistent else "eventually"
    name = f"{rate:,.0f} {kind} consistent reads/s of {item_bytes:,}-byte items over {items:,} items"
    build = lambda chosen: reads_workload(name, items, rate, minutes * 60, chosen, item_bytes, consistent)  # noqa: E731
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
