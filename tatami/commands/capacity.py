"""`tatami capacity`: would this workload throttle in AWS? DynamoDB's partitions, simulated locally.

A thin shell over `tatami.capacity`: read the workload, build the table, run, print.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import click

from tatami.capacity.adapters import seed003
from tatami.capacity.model.limits import SOURCES, Limits
from tatami.capacity.reports.report import simulate
from tatami.capacity.workloads.builders import ORDERS, Setting, counter_workload, keys_workload
from tatami.capacity.workloads.csv_keys import KeyFileError, read_keys
from tatami.commands.capacity_options import Output, show, table_options

__all__ = ["capacity"]


@click.group("capacity")
def capacity() -> None:
    """Simulate DynamoDB's partitions: throttling, hot keys and splits, before deploying.

    Pure Python and deterministic for a --seed: no AWS account, no call. Every constant is AWS's
    documented value (`tatami capacity limits`) and can be overridden with --limit.
    """


@capacity.command("csv")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--key", "key_column", required=True, help="The column holding the partition key.")
@click.option("--sort-key", "sort_column", help="The column holding the sort key, if any.")
@click.option("--order", type=click.Choice(ORDERS), default="file", show_default=True, help="Write order.")
@click.option("--item-bytes", type=click.IntRange(1, 400 * 1024), default=100, show_default=True)
@click.option("--writers", type=click.IntRange(1, 256), default=1, show_default=True, help="Batch writers.")
@table_options
def csv_command(
    file: Path,
    key_column: str,
    sort_column: str | None,
    order: str,
    item_bytes: int,
    writers: int,
    setting: Setting,
    output: Output,
) -> None:
    """Load one item per row of FILE (CSV with a header) as a bulk loader would, and see it throttle."""
    try:
        keys = read_keys(file, key_column, sort_column)
    except KeyFileError as exc:
        raise click.ClickException(str(exc)) from None
    workload = keys_workload(f"{file.name} ({order} order)", keys, setting, item_bytes, order, writers)
    show(simulate(workload), output)


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
    output: Output,
) -> None:
    """Increment a write-sharded counter (seed 004) at a steady rate on random shards."""
    from tatami_functions.counters.sharding import shards_needed

    if (target_wcu is None) == (shards is None):
        raise click.UsageError("give either --target-wcu (shards from the seed's formula) or --shards")
    count = shards or shards_needed(target_wcu or 1, safety_factor=safety_factor)
    offered = rate or float(target_wcu or count * 1000)
    click.echo(f"{name}: {count} shards, {offered:,.0f} increments/s for {minutes:g} min")
    show(simulate(counter_workload(name, count, offered, minutes * 60, setting)), output)


@capacity.command("seed003")
@click.option(
    "--seeds", type=click.IntRange(1, 50), default=5, show_default=True, help="Hash seeds per load."
)
def seed003_command(seeds: int) -> None:
    """Seed 003's four loads through the model, measured as the seed measured them, beside its figures."""
    results = []
    for load in seed003.LOADS:
        runs = [seed003.run(load, seed) for seed in range(1 if load.one_key else seeds)]
        results.append(runs)
        click.echo(f"{load.name}: median {statistics.median(r.figure for r in runs):,.0f} writes/s")
    click.echo(seed003.table(results))


@capacity.command("limits")
def limits_command() -> None:
    """The model's constants, their values and the public source of each."""
    limits = Limits()
    for name, (source, says) in SOURCES.items():
        click.echo(f"{name} = {getattr(limits, name):g}\n    {says}\n    {source}")
