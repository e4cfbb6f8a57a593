"""`tatami zindex`: jobs over the places Z-order index (backfill, analyze), locally or on AWS.

A thin shell over ``places.backfill``: options, a progress bar, the checkpoint file and a summary.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import click
from tqdm import tqdm

from infra.constants import OUTPUT_PLACES_ZINDEX
from places import backfill as jobs
from places import repository
from places.settings import IndexSettings
from tatami.local.state import DEFAULT_WORK_DIR
from tatami.target import Target, TargetError, resolve_target

LOCAL_HELP = "Act on the running local cloud instead of the deployed stack."


def _open(local: bool) -> tuple[Target, IndexSettings]:
    try:
        target = resolve_target(local)
        settings = IndexSettings.from_env(json.loads(target.output(OUTPUT_PLACES_ZINDEX)))
    except TargetError as exc:
        raise click.ClickException(str(exc)) from None
    repository.use_resource(target.resource("dynamodb"))
    return target, settings


@click.group("zindex")
def zindex() -> None:
    """Maintain the places Z-order index: backfill addresses, refresh the planner statistics."""


@zindex.command()
@click.option("--local", is_flag=True, help=LOCAL_HELP)
@click.option(
    "--segments", default=4, show_default=True, type=click.IntRange(1, 64), help="Parallel Scan segments."
)
@click.option("--resume", is_flag=True, help="Continue an interrupted backfill from its checkpoint.")
@click.option("--restart", is_flag=True, help="Ignore an existing checkpoint and scan from the start.")
@click.option(
    "--checkpoint", type=click.Path(path_type=Path), help="Checkpoint file (default under .local/)."
)
@click.option("--no-analyze", is_flag=True, help="Do not refresh the planner statistics afterwards.")
def backfill(
    local: bool, segments: int, resume: bool, restart: bool, checkpoint: Path | None, no_analyze: bool
) -> None:
    """Index items written before the index existed (or lost by the maintainer): parallel Scan, the
    maintainer's own conditional write, a checkpoint after every page (Ctrl-C, then --resume)."""
    target, settings = _open(local)
    path = checkpoint or DEFAULT_WORK_DIR / "zindex" / f"{target.name}-{settings.index}-backfill.json"
    if path.exists() and not (resume or restart):
        raise click.ClickException(f"{path} holds an earlier backfill: pass --resume to go on or --restart")
    try:
        state = jobs.Checkpoint.open(path, segments, resume=resume)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    total = target.client("dynamodb").describe_table(TableName=settings.table)["Table"].get("ItemCount", 0)
    started = time.monotonic()
    with tqdm(total=total or None, unit="item", desc=f"backfill {settings.index}", disable=None) as bar:
        outcomes = jobs.backfill(settings, state, bar.update)
    seconds = time.monotonic() - started
    scanned = sum(outcomes.values())
    detail = ", ".join(f"{name} {count:,}" for name, count in sorted(outcomes.items()))
    click.echo(
        f"backfill {settings.index}: {scanned:,} items in {seconds:.1f} s ({detail}); checkpoint {path}"
    )
    if not no_analyze:
        _analyze(settings)


@zindex.command()
@click.option("--local", is_flag=True, help=LOCAL_HELP)
def analyze(local: bool) -> None:
    """Rebuild the planner statistics from the index (keys only; searches read them within 5 minutes)."""
    _analyze(_open(local)[1])


def _analyze(settings: IndexSettings) -> None:
    started = time.monotonic()
    with tqdm(unit="address", desc=f"analyze {settings.index}", disable=None) as bar:
        found = jobs.analyze(settings, bar.update)
    click.echo(
        f"analyze {settings.index}: {found['items']:,} addresses, {found['cells']:,} histogram cells of "
        f"{found['depth']} bits, {found['bytes']:,} bytes stored, in {time.monotonic() - started:.1f} s"
    )
