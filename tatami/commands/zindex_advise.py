"""`tatami zindex advise`: which indexes a table should have, and how big.

With ``--workload``, it reads a workload of typical searches and a sample of the table and recommends
an index set, with each index's storage and write cost (zindex.advisor). With ``--writes-per-second``
(and ``--items``), it sizes each index's bucket bits or shards for that write rate and table size
(tatami/commands/zindex_sizing.py). Searches are written as for ``explain``: ``name=LOW..HIGH``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from tatami.commands.zindex_plans import parse_bounds
from tatami.commands.zindex_sizing import size_indexes
from tatami.commands.zindex_target import open_table, table_options
from zindex import IndexedTable
from zindex.advisor import advise as advise_indexes
from zindex.dynamodb import IndexRepository
from zindex.search import Searcher
from zindex.statistics import build


def _workload(path: Path, table: IndexedTable) -> list[dict[str, tuple[Any, Any]]]:
    searches = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                searches.append(parse_bounds(table, line.split()))
            except click.BadParameter as exc:
                raise click.ClickException(f"{path}:{number}: {exc.message}") from None
    if not searches:
        raise click.ClickException(f"{path} holds no searches (one per line: name=LOW..HIGH ...)")
    return searches


def _sample(repository: IndexRepository, count: int) -> list[dict[str, Any]]:
    """The first ``count`` items of a Scan (the table's hash order is as good as random)."""
    items: list[dict[str, Any]] = []
    start = None
    while len(items) < count:
        page = repository.scan(None, 0, 1, None, min(1000, count - len(items)), start)
        items += [i for i in page.items if not repository.table.is_reserved(i)]
        if (start := page.last_key) is None:
            break
    return items


@click.command()
@table_options
@click.option(
    "--workload",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Typical searches, one per line: name=LOW..HIGH ... (# starts a comment).",
)
@click.option(
    "--sample",
    default=20_000,
    show_default=True,
    type=click.IntRange(100, 1_000_000),
    help="Items of the table to build the hypothetical statistics from.",
)
@click.option("--items", type=click.IntRange(1), help="Size the indexes for this many items [the table's].")
@click.option(
    "--writes-per-second",
    type=click.FloatRange(0),
    help="Size bucket bits and shards for this many item writes a second (and price each index).",
)
def advise(
    local: bool,
    table_name: str,
    workload: Path | None,
    sample: int,
    items: int | None,
    writes_per_second: float | None,
) -> None:
    """Recommend indexes for a workload: each with the workload's cost once it is added, how many
    searches it serves best, its storage and the write units each item write adds; with
    --writes-per-second, the bucket bits and shards each index needs at that rate and size."""
    if workload is None and writes_per_second is None:
        raise click.UsageError("give --workload, --writes-per-second, or both")
    _, repository = open_table(local, table_name)
    searches = _workload(workload, repository.table) if workload is not None else []
    sampled = _sample(repository, sample)
    searcher = Searcher(repository)
    analyzed = searcher.statistics().items if searcher.without_statistics() is None else 0
    total = items or max(len(sampled), analyzed)
    if searches:
        _advise_indexes(table_name, repository.table, searches, sampled, total)
    if writes_per_second is not None:
        statistics = searcher.statistics() if analyzed else build(repository.table, sampled)
        size_indexes(table_name, repository.table, statistics, total, writes_per_second, click.echo)


def _advise_indexes(
    table_name: str,
    table: IndexedTable,
    searches: list[dict[str, tuple[Any, Any]]],
    items: list[dict[str, Any]],
    total: int,
) -> None:
    found = advise_indexes(table, items, total, searches)
    click.echo(
        f"ADVISE {table_name}: {found.searches} searches, sample of {len(items):,} of ~{total:,} items"
    )
    click.echo(f"  no index (a Scan per search): workload cost {found.scan_cost:,.1f}")
    for n, p in enumerate(found.kept, 1):
        click.echo(
            f"  {n}. {p.index.describe():<48} workload cost {p.workload_cost:>9,.1f}  "
            f"best for {p.best_for:>4} searches  {p.storage_bytes / 1e6:>8,.1f} MB  "
            f"+{p.write_units} WCU per item write"
        )
