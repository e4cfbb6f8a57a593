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

from tatami.capacity.reports.ranges import ASSUMPTIONS, Ranges
from tatami.capacity.reports.render import ChartUnavailableError, render_ranges, write_csv, write_png
from tatami.capacity.reports.report import Report
from tatami.capacity.workloads.schedule import Schedule, ScheduleError
from tatami.capacity.workloads.sdk import MODES, ClientConfig
from tatami.commands.capacity_setting import setting_from, with_index_and_maximum

__all__ = ["RATE", "Output", "Runs", "show", "table_options", "write_files"]


class RateType(click.ParamType[Schedule, Any]):
    """A rate, or a schedule of rates: `5000`, or `4000,8000@30m,16000@1h` (a step from each time on)."""

    name = "RATE[,RATE@START...]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Schedule:
        if isinstance(value, Schedule):
            return value
        try:
            return Schedule.parse(str(value))
        except ScheduleError as exc:
            self.fail(str(exc), param, ctx)


RATE = RateType()


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
        gsi_capacity: str | None,
        max_throughput: str | None,
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
        setting = setting_from(provisioned, warm, idle, limits, seed)
        setting = with_index_and_maximum(setting, gsi_capacity, max_throughput)
        setting = dataclasses.replace(setting, lsi=lsi, client=client)
        return command(
            *args, setting=setting, runs=Runs(seeds, assume), output=Output(png, csv_out), **kwargs
        )

    return functools.reduce(lambda wrapped, option: option(wrapped), reversed(_OPTIONS), run)


_OPTIONS = [
    click.option("--provisioned", metavar="WCU[:RCU]", help="A provisioned table (default: on-demand)."),
    click.option("--warm", metavar="W[:R]", help="On-demand warm throughput (default: a new table's)."),
    click.option(
        "--gsi-capacity",
        metavar="W[:R]",
        help="A global secondary index's own WCU[:RCU] (provisioned) or warm throughput (on-demand); "
        "default: the table's.",
    ),
    click.option(
        "--max-throughput",
        metavar="W[:R]",
        help="On-demand maximum throughput (MaxWriteRequestUnits[:MaxReadRequestUnits]): past it, throttled.",
    ),
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
