"""Options every `tatami capacity` command and `tatami local insights` share: the table, the client,
the runs (hash seeds and readings of the open choices) and the output."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.limits import Limits
from tatami.capacity.reports.ranges import ASSUMPTIONS, Ranges
from tatami.capacity.reports.render import ChartUnavailableError, render_ranges, write_csv, write_png
from tatami.capacity.reports.report import Report
from tatami.capacity.workloads.builders import Setting
from tatami.capacity.workloads.sdk import MODES, ClientConfig

__all__ = ["Output", "Runs", "setting_from", "show", "table_options", "write_files"]


@dataclass(frozen=True)
class Output:
    png: Path | None = None
    csv: Path | None = None


@dataclass(frozen=True)
class Runs:
    """How many hash seeds, and which readings of the open choices (`--seeds`, `--assume`)."""

    seeds: int = 3
    assume: str = "range"


def table_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add the shared options to a command, which receives `setting=`, `runs=` and `output=`."""

    @functools.wraps(command)
    def run(
        *args: Any,
        provisioned: str | None,
        warm: str | None,
        idle: float,
        lsi: bool,
        limits: tuple[str, ...],
        retry_mode: str,
        max_attempts: int | None,
        latency: float,
        seed: int,
        seeds: int,
        assume: str,
        png: Path | None,
        csv_out: Path | None,
        **kwargs: Any,
    ) -> Any:
        client = ClientConfig(retry_mode, max_attempts, latency / 1000)
        setting = dataclasses.replace(
            setting_from(provisioned, warm, idle, limits, seed), lsi=lsi, client=client
        )
        return command(
            *args, setting=setting, runs=Runs(seeds, assume), output=Output(png, csv_out), **kwargs
        )

    return functools.reduce(lambda wrapped, option: option(wrapped), reversed(_OPTIONS), run)


_OPTIONS = [
    click.option("--provisioned", metavar="WCU[:RCU]", help="A provisioned table (default: on-demand)."),
    click.option("--warm", metavar="W[:R]", help="On-demand warm throughput (default: a new table's)."),
    click.option(
        "--idle",
        type=click.FloatRange(0),
        default=0.0,
        help="Provisioned: seconds the table sat unused before (burst capacity saved, at most 300).",
    ),
    click.option("--lsi", is_flag=True, help="The table has a local secondary index (collections <= 10 GB)."),
    click.option(
        "--limit",
        "limits",
        multiple=True,
        metavar="NAME=VALUE",
        help="Override a model constant (`tatami capacity limits` lists them with their sources).",
    ),
    click.option(
        "--retry-mode",
        type=click.Choice(MODES),
        default="standard",
        show_default=True,
        help="The AWS SDK's retry mode of the application's client (botocore's rules).",
    ),
    click.option(
        "--max-attempts",
        type=click.IntRange(1, 100),
        help="Attempts per call, the first included (default: the SDK's for DynamoDB).",
    ),
    click.option(
        "--latency",
        type=click.FloatRange(0.1, 60_000),
        default=5.0,
        show_default=True,
        help="Milliseconds a call takes to answer (in the Region: single-digit).",
    ),
    click.option("--seed", type=int, default=0, show_default=True, help="First hash seed (where keys land)."),
    click.option(
        "--seeds",
        type=click.IntRange(1, 50),
        default=3,
        show_default=True,
        help="Hash seeds to run (the figures are ranges over them).",
    ),
    click.option(
        "--assume",
        type=click.Choice(ASSUMPTIONS),
        default="range",
        show_default=True,
        help="Readings of what AWS leaves open (accounting, on-demand growth, split delay): all, or one.",
    ),
    click.option(
        "--png", type=click.Path(dir_okay=False, path_type=Path), help="Write a chart (matplotlib)."
    ),
    click.option(
        "--csv", "csv_out", type=click.Path(dir_okay=False, path_type=Path), help="Write per-second rows."
    ),
]


def setting_from(
    provisioned: str | None, warm: str | None, idle: float, limits: tuple[str, ...], seed: int
) -> Setting:
    """The Setting the table options describe; a bad value is a usage error naming its option."""
    try:
        chosen = Limits.overridden(limits)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--limit") from None
    if provisioned and warm:
        raise click.UsageError(
            "--warm applies to on-demand tables; a provisioned table's throughput is its WCU/RCU"
        )
    if provisioned:
        wcu, rcu = _pair(provisioned, "--provisioned", 1.0)
        return Setting(Capacity.provisioned(wcu, rcu, idle), chosen, seed)
    if warm:
        write, read = _pair(warm, "--warm", None)
        return Setting(Capacity.on_demand(write, read, chosen), chosen, seed)
    return Setting(Capacity.on_demand(limits=chosen), chosen, seed)


def _pair(text: str, option: str, default: float | None) -> tuple[float, Any]:
    first, _, second = text.partition(":")
    try:
        values = float(first), float(second) if second else default
    except ValueError:
        raise click.BadParameter(f"{text!r}: expected numbers as N or N:M", param_hint=option) from None
    if values[0] <= 0 or (values[1] is not None and values[1] <= 0):
        raise click.BadParameter(f"{text!r}: capacity must be positive", param_hint=option)
    return values


def show(ranges: Ranges, output: Output) -> None:
    """Print the main run and the ranges; write the main run's chart and rows when asked."""
    click.echo(render_ranges(ranges))
    write_files(ranges.main, output)


def write_files(report: Report, output: Output) -> None:
    """Write the per-second rows and the chart when asked (the chart needs matplotlib)."""
    if output.csv:
        click.echo(f"per-second rows: {write_csv(report, output.csv)}")
    if output.png:
        try:
            click.echo(f"chart: {write_png(report, output.png)}")
        except ChartUnavailableError as exc:
            raise click.ClickException(str(exc)) from None
