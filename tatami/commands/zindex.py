"""`tatami zindex`: jobs over the places Z-order index (backfill, analyze), locally or on AWS.

The backfill is `tatami scan`'s parallel Scan (tatami/scan.py: a thread per segment, checkpoint,
progress) with the maintainer's step on every page (``places.backfill.index_page``); analyze is
``places.backfill.analyze``.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from infra.constants import OUTPUT_PLACES_ZINDEX
from places import backfill as jobs
from places import repository
from places.settings import IndexSettings
from tatami.local.state import DEFAULT_WORK_DIR
from tatami.scan import Checkpoint, ScanSummary, parallel_scan
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


def run_backfill(
    client: Any, settings: IndexSettings, segments: int, checkpoint: Checkpoint, page_size: int | None = None
) -> tuple[ScanSummary, Counter[str]]:
    """Index every item with ``tatami.scan`` (one thread per segment); returns the scan summary and
    the outcome counts, including those of the runs this one resumes (kept in the checkpoint)."""
    lock = threading.Lock()
    outcomes = {int(segment): Counter[str](found) for segment, found in checkpoint.progress.items()}

    def on_page(segment: int, items: list[dict[str, Any]]) -> None:
        found = jobs.index_page(settings, items)
        with lock:
            outcomes.setdefault(segment, Counter()).update(found)
            checkpoint.stage(segment, dict(outcomes[segment]))

    summary = parallel_scan(
        client, settings.table, segments, on_page, checkpoint=checkpoint, page_size=page_size
    )
    return summary, sum(outcomes.values(), Counter[str]())


def _checkpoint(path: Path, table: str, segments: int, resume: bool, restart: bool) -> Checkpoint:
    """The checkpoint of an interrupted run is resumed only when asked (and only for the same scan)."""
    if path.exists():
        if not (resume or restart):
            raise click.ClickException(f"{path} holds an interrupted backfill: pass --resume or --restart")
        saved = json.loads(path.read_text())
        if resume and (saved.get("table"), saved.get("segments")) != (table, segments):
            raise click.ClickException(
                f"{path} is for {saved.get('segments')} segments of {saved.get('table')}: use --restart"
            )
        if restart:
            path.unlink()
    return Checkpoint.open(path, table, segments)


@zindex.command()
@click.option("--local", is_flag=True, help=LOCAL_HELP)
@click.option(
    "--segments", default=4, show_default=True, type=click.IntRange(1, 64), help="Parallel Scan segments."
)
@click.option("--resume", is_flag=True, help="Continue an interrupted backfill from its checkpoint.")
@click.option(
    "--restart", is_flag=True, help="Ignore an interrupted backfill's checkpoint; scan from the start."
)
@click.option(
    "--checkpoint", type=click.Path(path_type=Path), help="Checkpoint file (default under .local/)."
)
@click.option("--no-analyze", is_flag=True, help="Do not refresh the planner statistics afterwards.")
def backfill(
    local: bool, segments: int, resume: bool, restart: bool, checkpoint: Path | None, no_analyze: bool
) -> None:
    """Index items written before the index existed (or lost by the maintainer): `tatami scan`'s parallel
    Scan, the maintainer's own conditional write, a checkpoint after every page (Ctrl-C, then --resume).
    Rerunning a finished backfill is harmless: every item is then "unchanged"."""
    target, settings = _open(local)
    path = checkpoint or DEFAULT_WORK_DIR / "zindex" / f"{target.name}-{settings.index}-backfill.json"
    state = _checkpoint(path, settings.table, segments, resume, restart)
    summary, outcomes = run_backfill(target.client("dynamodb"), settings, segments, state)
    detail = ", ".join(f"{name} {count:,}" for name, count in sorted(outcomes.items()))
    click.echo(f"backfill {settings.index}: {summary.line()}; outcomes: {detail or 'no items'}")
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
