"""`tatami zindex explain`: the optimizer's reasoning, shown.

``explain`` prints every candidate plan of one search with its estimate and cost and marks the one
chosen, as PostgreSQL's EXPLAIN does; ``--analyze`` runs it (every page) and prints what it really
read, paid and took beside the estimate (``advise`` is in tatami/commands/zindex_advise.py).

A search is written as bounds, ``name=LOW..HIGH`` (either side may be empty; ``name=VALUE`` for one
value), e.g. ``latitude=35.5..35.9 longitude=139.4..139.9 population=100000..``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

import click

from tatami.commands.zindex_target import open_table, table_options
from zindex import Cursor, IndexedTable, SearchQuery
from zindex.errors import ZIndexError
from zindex.executor import PageStats
from zindex.optimizer import describe
from zindex.search import Searcher

TEXT_KINDS = ("Text", "Timestamp")


def _value(table: IndexedTable, name: str, text: str) -> Any:
    if not text:
        return None
    if type(table.attribute(name).encoding).__name__ in TEXT_KINDS:
        return text
    try:
        return Decimal(text)
    except InvalidOperation:
        raise click.BadParameter(f"{name}: {text!r} is not a number") from None


def parse_bounds(table: IndexedTable, items: Sequence[str]) -> dict[str, tuple[Any, Any]]:
    """``name=LOW..HIGH`` items as bounds of the table's attributes (values typed by their encoding)."""
    names = {a.name for a in table.attributes}
    bounds: dict[str, tuple[Any, Any]] = {}
    for item in items:
        name, _, span = item.partition("=")
        if name not in names or not span:
            raise click.BadParameter(f"{item!r}: write NAME=LOW..HIGH with NAME one of {sorted(names)}")
        low, dots, high = span.partition("..")
        bounds[name] = (_value(table, name, low), _value(table, name, high if dots else low))
    return bounds


def _query(table: IndexedTable, items: Sequence[str]) -> SearchQuery:
    try:
        return SearchQuery(table, parse_bounds(table, items))
    except ZIndexError as exc:
        raise click.BadParameter(str(exc)) from None


def _row(mark: str, plan: str, width: int, e: dict[str, float], cost: Any) -> str:
    return (
        f"{mark} {plan:<{width}} {e['items_read']:>10,.0f} {e['items_returned']:>9,.0f} "
        f"{e['queries']:>8,.1f} {e['consumed_rcu']:>9,.1f} {cost:>9}"
    )


def _run(
    searcher: Searcher, query: SearchQuery, limit: int, kind: str | None
) -> tuple[PageStats, float, int]:
    """Every page of the chosen (or the ``kind``) plan; returns the totals, the seconds and the pages."""
    only = (lambda plan: plan.kind == kind) if kind else None
    total, cursor, pages, started = PageStats(), None, 0, time.perf_counter()
    while True:
        page = searcher.search(query, limit, Cursor.from_json(cursor.to_json()) if cursor else None, only)
        total.add(page.stats)
        total.items_returned += page.stats.items_returned
        pages, cursor = pages + 1, page.cursor
        if cursor is None:
            return total, time.perf_counter() - started, pages


@click.command()
@table_options
@click.argument("bounds", nargs=-1, required=True)
@click.option(
    "--analyze", "run", is_flag=True, help="Run the plan (every page) and show actual beside estimate."
)
@click.option(
    "--plan", "kind", help="Analyze this candidate instead of the cheapest (e.g. z-between, sorted)."
)
@click.option("--limit", default=10_000, show_default=True, type=click.IntRange(1, 10_000), help="Page size.")
def explain(
    local: bool, table_name: str, bounds: tuple[str, ...], run: bool, kind: str | None, limit: int
) -> None:
    """The optimizer's candidate plans for one search, cheapest first, the chosen one marked with *.

    \b
    tatami zindex explain --local population=1000000..
    tatami zindex explain --local --analyze latitude=48..50 longitude=1..4 population=100000..
    """
    _, repository = open_table(local, table_name)
    searcher, query = Searcher(repository), _query(repository.table, bounds)
    started = time.perf_counter()
    choice = searcher.plan(query)
    planned = (time.perf_counter() - started) * 1000
    click.echo(f"EXPLAIN {table_name}: {' '.join(bounds)}   (planned in {planned:.1f} ms)")
    width = max(len(describe(plan)) for plan, _ in choice.ranked)
    click.echo(f"  {'plan':<{width}} {'est. reads':>10} {'results':>9} {'queries':>8} {'RCU':>9} {'cost':>9}")
    for plan, cost in choice.ranked:
        click.echo(
            _row(
                "*" if plan is choice.chosen else " ",
                describe(plan),
                width,
                plan.estimate.as_dict(),
                f"{cost:,.2f}",
            )
        )
    if searcher.without_statistics():
        click.echo(f"note: no statistics ({searcher.without_statistics()})")
    if run:
        chosen = next((p for p, _ in choice.ranked if p.kind == kind), None) if kind else choice.chosen
        if chosen is None:
            raise click.BadParameter(f"no candidate of kind {kind!r}", param_hint="--plan")
        actual, seconds, pages = _run(searcher, query, limit, kind)
        est = chosen.estimate
        click.echo(
            f"ANALYZE {describe(chosen)}: {pages} page(s) of up to {limit:,}, {seconds * 1000:,.0f} ms"
        )
        click.echo(f"  items read      {actual.items_read:>12,}   estimated {est.reads:>12,.0f}")
        click.echo(f"  items returned  {actual.items_returned:>12,}   estimated {est.results:>12,.0f}")
        click.echo(f"  Queries         {actual.queries:>12,}   estimated {est.queries:>12,.1f}")
        click.echo(f"  read units      {actual.consumed_rcu:>12,.1f}   estimated {est.rcu:>12,.1f}")
