"""`tatami capacity counters|reads|mix`: requests from callers (functions), each with its own SDK client.

Rates are steady (`--rate 5000`) or change over time (`--rate 4000,8000@30m,16000@1h`: each step
from its start on). What the callers see (requests failed, SDK retries, time added) is told beside
DynamoDB's attempts, and every run is priced in both capacity modes.
"""

from __future__ import annotations

import dataclasses

import click

from tatami.capacity.reports.ranges import sweep
from tatami.capacity.workloads.builders import Mix, Setting, counter_workload, mix_workload, reads_workload
from tatami.capacity.workloads.callers import TICK
from tatami.capacity.workloads.schedule import Schedule
from tatami.capacity.workloads.sdk import ClientConfig
from tatami.commands.capacity_options import RATE, Output, Runs, show, table_options

__all__ = ["counters_command", "mix_command", "reads_command"]


def _function_client(client: ClientConfig) -> ClientConfig:
    """The counters functions' own client (`API_CALLS`: its attempts) unless --max-attempts says otherwise."""
    from tatami_functions.common.clients import API_CALLS

    if client.max_attempts is not None:
        return client
    return dataclasses.replace(client, max_attempts=API_CALLS.options["retries"]["total_max_attempts"])


@click.command("counters")
@click.option("--name", default="votes", show_default=True, help="The counter's name (shard keys: NAME#n).")
@click.option("--target-wcu", type=click.IntRange(1), help="Size the shards with the seed's formula.")
@click.option("--safety-factor", type=click.FloatRange(1), default=1.0, show_default=True)
@click.option("--shards", type=click.IntRange(1, 1000), help="Use this many shards instead.")
@click.option("--rate", type=RATE, help="Increments per second, or steps (default: the target).")
@click.option(
    "--keyed",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="Share of increments sent with an Idempotency-Key: a transaction (2 write units on the shard "
    "and 2 on the key's record).",
)
@click.option("--minutes", type=click.FloatRange(min=0.1), default=2.0, show_default=True)
@table_options
def counters_command(
    name: str,
    target_wcu: int | None,
    safety_factor: float,
    shards: int | None,
    rate: Schedule | None,
    keyed: float,
    minutes: float,
    setting: Setting,
    runs: Runs,
    output: Output,
) -> None:
    """Increment a write-sharded counter (seed 004) on random shards, as its functions do.

    Each increment is one UpdateItem (a keyed one: one TransactWriteItems) from a caller with its own
    SDK client: the counters functions' (3 attempts) unless --max-attempts says otherwise.
    """
    from tatami_functions.counters.sharding import shards_needed

    if (target_wcu is None) == (shards is None):
        raise click.UsageError("give either --target-wcu (shards from the seed's formula) or --shards")
    count = shards or shards_needed(target_wcu or 1, safety_factor=safety_factor)
    offered = rate or Schedule.steady(float(target_wcu or count * 1000))
    keys = f", {keyed:.0%} keyed" if keyed else ""
    steady = offered.steady_rate
    pace = f"{steady:,.0f} increments/s" if steady is not None else f"increments at {offered.describe()}"
    click.echo(f"{name}: {count} shards, {pace}{keys} for {minutes:g} min")
    setting = dataclasses.replace(setting, client=_function_client(setting.client))
    build = lambda chosen: counter_workload(name, count, offered, minutes * 60, chosen, keyed)  # noqa: E731
    show(sweep(build, setting, runs.seeds, runs.assume), output)


@click.command("reads")
@click.option("--items", type=click.IntRange(1, 100_000), default=1000, show_default=True, help="Items read.")
@click.option("--rate", type=RATE, required=True, help="GetItem calls per second, or steps.")
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
    rate: Schedule,
    item_bytes: int,
    consistent: bool,
    minutes: float,
    setting: Setting,
    runs: Runs,
    output: Output,
) -> None:
    """Read ITEMS items at RATE GetItem calls a second, each one at random (--items 1: one hot item)."""
    kind = "strongly" if consistent else "eventually"
    name = f"{rate.describe()} {kind} consistent reads of {item_bytes:,}-byte items over {items:,} items"
    build = lambda chosen: reads_workload(name, items, rate, minutes * 60, chosen, item_bytes, consistent)  # noqa: E731
    show(sweep(build, setting, runs.seeds, runs.assume), output)


@click.command("mix")
@click.option(
    "--keys", type=click.IntRange(1, 100_000), default=1000, show_default=True, help="Partition keys."
)
@click.option("--writes", type=RATE, help="PutItem calls per second, or steps.")
@click.option("--reads", type=RATE, help="GetItem calls per second, or steps.")
@click.option("--transactions", type=RATE, help="TransactWriteItems calls per second, or steps.")
@click.option("--transaction-items", type=click.IntRange(1, 100), default=2, show_default=True)
@click.option("--item-bytes", type=click.IntRange(1, 400 * 1024), default=1000, show_default=True)
@click.option(
    "--consistent", is_flag=True, help="Strongly consistent reads (default: eventually consistent)."
)
@click.option(
    "--hot-share",
    type=click.FloatRange(0, 1, max_open=True),
    default=0.0,
    show_default=True,
    help="Share of each operation's requests on one key (key-0).",
)
@click.option(
    "--gsi-keys",
    type=click.IntRange(1),
    help="Writes also write a global secondary index whose partition key takes this many values.",
)
@click.option("--minutes", type=click.FloatRange(min=0.1), default=2.0, show_default=True)
@click.option(
    "--tick",
    type=click.FloatRange(0.01, 5.0),
    default=TICK,
    show_default=True,
    help="Seconds between groups of arrivals and retries (an hour-long run: 1 is 20x cheaper).",
)
@table_options
def mix_command(
    keys: int,
    writes: Schedule | None,
    reads: Schedule | None,
    transactions: Schedule | None,
    transaction_items: int,
    item_bytes: int,
    consistent: bool,
    hot_share: float,
    gsi_keys: int | None,
    minutes: float,
    tick: float,
    setting: Setting,
    runs: Runs,
    output: Output,
) -> None:
    """Writes, reads and transactions on one table (and its index) at once, each at its own rate.

    Each request is on a random key (or, --hot-share, on key-0) from a caller with its own SDK client.
    A throttled transaction is cancelled (TransactionCanceledException), which the SDK does not retry.
    """
    if not (writes or reads or transactions):
        raise click.UsageError("give at least one of --writes, --reads, --transactions")
    mix = Mix(
        keys, writes, reads, transactions, item_bytes, consistent, transaction_items, hot_share, gsi_keys
    )
    parts = [
        f"{label} {rate.describe()}"
        for label, rate in (("writes", writes), ("reads", reads), ("transactions", transactions))
        if rate
    ]
    name = f"{', '.join(parts)} over {keys:,} keys" + (f" ({hot_share:.0%} on key-0)" if hot_share else "")
    build = lambda chosen: mix_workload(name, mix, minutes * 60, chosen, tick)  # noqa: E731
    show(sweep(build, setting, runs.seeds, runs.assume), output)
