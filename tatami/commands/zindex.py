"""`tatami zindex`: the Z-index engine's jobs and tools, on any indexed table, locally or on AWS.

Indexed tables are found in the stack's outputs (each ``<Name>ZIndex`` output holds a table's
declaration), so a new indexed table needs no change here. ``backfill`` is `tatami scan`'s parallel
Scan (tatami/scan.py: a thread per segment, checkpoint, progress) with the maintainer's own step on
every page; ``analyze`` builds the statistics; ``status`` says how far the maintainer is;
``explain`` lives in tatami/commands/zindex_plans.py, ``advise`` in zindex_advise.py (its sizing in
zindex_sizing.py), the table lookup in zindex_target.py.
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

from tatami.commands.zindex_advise import advise
from tatami.commands.zindex_plans import explain
from tatami.commands.zindex_target import open_table, table_options
from tatami.local.state import default_work_dir
from tatami.scan import Checkpoint, ScanSummary, parallel_scan
from zindex.analyze import analyze as analyze_table
from zindex.analyze import index_page
from zindex.dynamodb import IndexRepository
from zindex.status import lag_seconds


@click.group("zindex")
def zindex() -> None:
    """Z-order and sorted indexes: backfill, statistics, status, EXPLAIN, index advice."""


def run_backfill(
    client: Any,
    repository: IndexRepository,
    segments: int,
    checkpoint: Checkpoint,
    page_size: int | None = None,
) -> tuple[ScanSummary, Counter[str]]:
    """Index every item with ``tatami.scan`` (one thread per segment); returns the scan summary and
    the outcome counts, including those of the runs this one resumes (kept in the checkpoint)."""
    lock = threading.Lock()
    outcomes = {int(segment): Counter[str](found) for segment, found in checkpoint.progress.items()}

    def on_page(segment: int, items: list[dict[str, Any]]) -> None:
        found = index_page(repository, items)
        with lock:
            outcomes.setdefault(segment, Counter()).update(found)
            checkpoint.stage(segment, dict(outcomes[segment]))

    table = repository.table.table
    summary = parallel_scan(client, table, segments, on_page, checkpoint=checkpoint, page_size=page_size)
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
@table_options
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
@click.option("--no-analyze", is_flag=True, help="Do not refresh the statistics afterwards.")
def backfill(
    local: bool,
    table_name: str,
    segments: int,
    resume: bool,
    restart: bool,
    checkpoint: Path | None,
    no_analyze: bool,
) -> None:
    """Index items written before the indexes existed (or lost by the maintainer): `tatami scan`'s
    parallel Scan, the maintainer's own conditional write, a checkpoint after every page (Ctrl-C, then
    --resume). Rerunning a finished backfill is harmless: every item is then "unchanged"."""
    target, repository = open_table(local, table_name)
    path = (
        checkpoint or default_work_dir() / "zindex" / f"{target.name}-{repository.table.table}-backfill.json"
    )
    state = _checkpoint(path, repository.table.table, segments, resume, restart)
    summary, outcomes = run_backfill(target.client("dynamodb"), repository, segments, state)
    detail = ", ".join(f"{name} {count:,}" for name, count in sorted(outcomes.items()))
    click.echo(f"backfill {table_name}: {summary.line()}; outcomes: {detail or 'no items'}")
    if not no_analyze:
        _analyze(table_name, repository)


@zindex.command()
@table_options
def analyze(local: bool, table_name: str) -> None:
    """Rebuild the statistics the optimizer plans from (a Scan of the table; searches read them within
    5 minutes)."""
    _analyze(table_name, open_table(local, table_name)[1])


def _analyze(name: str, repository: IndexRepository) -> None:
    started = time.monotonic()
    with tqdm(unit="item", desc=f"analyze {name}", disable=None) as bar:
        found = analyze_table(repository, progress=bar.update)
    entries = ", ".join(
        f"{index} {count:,} entries ({found['bytes'][index]:,} bytes)"
        for index, count in found["entries"].items()
    )
    click.echo(f"analyze {name}: {found['items']:,} items; {entries}; in {time.monotonic() - started:.1f} s")


@zindex.command()
@table_options
def status(local: bool, table_name: str) -> None:
    """How far the maintainer is: entries it has indexed, its last batch, the lag searches report."""
    _, repository = open_table(local, table_name)
    found = repository.get_status()
    if "batch_at" not in found:
        click.echo(f"{table_name}: the maintainer has not run yet")
        return
    ago = time.time() - float(found["batch_at"])
    click.echo(
        f"{table_name}: {int(found.get('entries#all', 0)):,} entries indexed; last batch {ago:.0f} s ago "
        f"({'full: more were waiting' if found.get('batch_full') else 'caught up'}); "
        f"index lag {lag_seconds(found, time.time()):.1f} s"
    )


zindex.add_command(explain)
zindex.add_command(advise)
