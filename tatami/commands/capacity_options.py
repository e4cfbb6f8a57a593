"""Options every `tatami capacity` command and `tatami local insights` share: the table and the output."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.limits import Limits
from tatami.capacity.reports.render import ChartUnavailableError, render, write_csv, write_png
from tatami.capacity.reports.report import Report
from tatami.capacity.workloads.builders import Setting

__all__ = ["Output", "setting_from", "show", "table_options", "write_files"]


@dataclass(frozen=True)
class Output:
    png: Path | None = None
    csv: Path | None = None


def table_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add the table and output options to a command, which receives `setting=` and `output=`."""

    @functools.wraps(command)
    def run(
        *args: Any,
        provisioned: str | None,
        warm: str | None,
        idle: float,
        limits: tuple[str, ...],
        seed: int,
        png: Path | None,
        csv_out: Path | None,
        **kwargs: Any,
    ) -> Any:
        setting = setting_from(provisioned, warm, idle, limits, seed)
        return command(*args, setting=setting, output=Output(png, csv_out), **kwargs)

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
    click.option(
        "--limit",
        "limits",
        multiple=True,
        metavar="NAME=VALUE",
        help="Override a model constant (`tatami capacity limits` lists them with their sources).",
    ),
    click.option("--seed", type=int, default=0, show_default=True, help="Hash seed (where keys land)."),
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


def show(report: Report, output: Output) -> None:
    """Print the report; write the chart and the rows when asked."""
    click.echo(render(report))
    write_files(report, output)


def write_files(report: Report, output: Output) -> None:
    """Write the per-second rows and the chart when asked (the chart needs matplotlib)."""
    if output.csv:
        click.echo(f"per-second rows: {write_csv(report, output.csv)}")
    if output.png:
        try:
            click.echo(f"chart: {write_png(report, output.png)}")
        except ChartUnavailableError as exc:
            raise click.ClickException(str(exc)) from None
