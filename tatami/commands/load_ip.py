"""`tatami load-ip FILE.csv [--local]`: load IP ranges as a new dataset version, then switch lookups to it.

A thin shell over `tatami.ip_loader`: options, a progress bar, and the summary.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click
from tqdm import tqdm

from tatami.capacity.adapters import ip_plan
from tatami.capacity.model.capacity import Capacity
from tatami.ip_loader.clients import loader_client
from tatami.ip_loader.exceptions import LoadError
from tatami.ip_loader.load import LoadOptions, LoadSummary, load, prepare
from tatami.ip_loader.store import RangesStore
from tatami.target import TargetError, resolve_target
from tatami_functions.stack_outputs import OUTPUT_IP_RANGES_TABLE

DEFAULTS = LoadOptions()


@click.command("load-ip")
@click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--local", is_flag=True, help="Load into the running local cloud instead of the deployed stack."
)
@click.option("--dry-run", is_flag=True, help="Validate and plan only: write nothing, need no deployment.")
@click.option(
    "--workers",
    default=DEFAULTS.workers,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Writer threads.",
)
@click.option(
    "--ipv6-prefix",
    default=DEFAULTS.ipv6_prefix,
    show_default=True,
    type=click.IntRange(4, 64),
    help="Bits of an IPv6 address that pick its partition (IPv4 always uses /8).",
)
@click.option(
    "--grace",
    default=DEFAULTS.grace,
    show_default=True,
    type=click.FloatRange(0),
    help="Seconds between the switch and removing older versions (lookups cache the alias 30 s).",
)
@click.option("--force", is_flag=True, help="Load again even when these files are already the live dataset.")
@click.option(
    "--no-progress", is_flag=True, help="No progress bar (it is off anyway when not on a terminal)."
)
def load_ip(
    files: tuple[Path, ...],
    local: bool,
    dry_run: bool,
    workers: int,
    ipv6_prefix: int,
    grace: float,
    force: bool,
    no_progress: bool,
) -> None:
    """Load IP ranges from FILES (CSV) and make them the live dataset of GET /ip/{address}.

    Each file has a header row, then one range per row: `start,end` (inclusive) or `network` (CIDR),
    plus any metadata columns, which lookups return as `data`. Both families may share a file. Bad
    rows (bad address, start > end, mixed families, overlapping ranges) are all listed with their
    line numbers and nothing is written. A load writes a new version beside the live one and
    switches lookups to it only once every item landed and was counted; run the same command again
    to resume an interrupted load (an already live file is skipped unless --force).
    """
    options = LoadOptions(workers=workers, ipv6_prefix=ipv6_prefix, grace=grace, force=force)
    try:
        prepared = prepare(files, ipv6_prefix)  # every row is checked before any target is touched
        if dry_run:
            click.echo(f"dry run: {prepared.summary().describe()}; nothing was written")
            simulated = ip_plan.plan_load_times(prepared.plan, workers)
            click.echo(ip_plan.summary(simulated, Capacity.on_demand().describe()))
            return
        target = resolve_target(local)
        store = RangesStore(loader_client(target), target.output(OUTPUT_IP_RANGES_TABLE))
        with tqdm(unit=" items", unit_scale=True, disable=True if no_progress else None) as bar:
            summary = load(prepared, store, options, _progress(bar), lambda line: bar.write(line))
    except (LoadError, TargetError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(report(summary, target.name))


def _progress(bar: tqdm) -> Callable[[int, int], None]:
    def update(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    return update


def report(summary: LoadSummary, where: str) -> str:
    """The closing summary: what went live, how fast, what it cost, what was removed."""
    if summary.already_live:
        return (
            f"v{summary.version} on {where} already serves these files; nothing to do (--force loads again)"
        )
    resumed = f", resumed after {summary.resumed_chunks} finished chunks" if summary.resumed_chunks else ""
    removed = (
        f"; removed {summary.removed:,} items of v{summary.previous} and older" if summary.removed else ""
    )
    return (
        f"v{summary.version} is live on {where}: {summary.describe()}\n"
        f"wrote {summary.written:,} items in {summary.write_seconds:.1f} s "
        f"({summary.items_per_second:,.0f} items/s, {summary.wcu:,.0f} WCU{resumed}); "
        f"{summary.seconds:.1f} s in all{removed}"
    )
