"""`tatami zplan`: what a Z-order query costs on a schema, and which attributes the schema should hold.

A thin shell over ``zorder.cost`` / ``zorder.advisor`` / ``zorder.report``: parse options, print tables.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from zorder import (
    Schema,
    WorkloadQuery,
    advice_table,
    advise,
    estimate_table,
    explain,
    formula_rows,
    formula_table,
)

SCHEMA_HELP = (
    "The schema: a JSON file written by Schema.to_json(), inline JSON, or a spec of name:type:params "
    "items, e.g. 'latitude:fixed:-90:90:16,longitude:fixed:-180:180:16,population:uint:32'. "
    "Types: uint:BITS, int:BITS, float[:32|64], fixed:LO:HI:BITS, text:NBYTES, timestamp[:BITS], bool."
)
WORKLOAD_HELP = (
    'JSON file of expected queries for the advisor: {"queries": [{"name": "nearby", "frequency": 90, '
    '"selectivity": {"latitude": 0.01, "longitude": 0.01}}, ...]} (or just the list). Selectivity is the '
    "share of an attribute's values a query keeps; attributes a query leaves unbound are omitted."
)


def load_schema(text: str) -> Schema:
    """Read ``--schema``: a JSON file, inline JSON, or an inline spec."""
    path = Path(text)
    if path.is_file():
        return Schema.from_json(path.read_text(encoding="utf-8"))
    if text.lstrip().startswith("{"):
        return Schema.from_json(text)
    return Schema.from_spec(text)


def parse_bounds(schema: Schema, items: Sequence[str], option: str) -> dict[str, Any]:
    """Turn ``dim=value`` items into values of each dimension's type (``Encoding.parse``)."""
    encodings = {d.name: d.encoding for d in schema.dimensions}
    bounds: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or name.strip() not in encodings:
            raise click.BadParameter(
                f"{item!r}: expected DIM=VALUE with DIM one of {', '.join(schema.names)}", param_hint=option
            )
        try:
            bounds[name.strip()] = encodings[name.strip()].parse(text.strip())
        except ValueError as exc:
            raise click.BadParameter(f"{item!r}: {exc}", param_hint=option) from None
    return bounds


def load_workload(path: Path) -> list[WorkloadQuery]:
    """Read the advisor's workload file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"{path}: not JSON ({exc})", param_hint="--workload") from None
    queries = data.get("queries") if isinstance(data, dict) else data
    if not isinstance(queries, list) or not all(isinstance(q, dict) for q in queries):
        raise click.BadParameter(f"{path}: expected a list of queries", param_hint="--workload")
    return [WorkloadQuery.from_dict(q) for q in queries]


def render(schema: Schema, box_bounds: tuple[dict[str, Any], dict[str, Any]], max_ranges: int) -> str:
    """The cost section: the query's estimate, then the seed's formula table for the schema."""
    box = schema.box(*box_bounds)
    described = ", ".join(f"{d.name} {d.encoding!r}" for d in schema.dimensions)
    return "\n".join(
        [
            f"schema: {described} ({schema.bits} bits, {schema.nbytes}-byte addresses)",
            "",
            "Query cost (the seed's n^((a-b)/a), each dimension counted by the keys it selects)",
            estimate_table(explain(schema, box, max_ranges)),
            "",
            "The seed's formula table for this schema (first dimensions bound to one value each)",
            formula_table(formula_rows(schema)),
        ]
    )


@click.command("zplan")
@click.option("--schema", "schema_text", required=True, metavar="SPEC|JSON|FILE", help=SCHEMA_HELP)
@click.option("--min", "lower", multiple=True, metavar="DIM=VALUE", help="Lower bound (repeatable).")
@click.option("--max", "upper", multiple=True, metavar="DIM=VALUE", help="Upper bound (repeatable).")
@click.option("--eq", "equal", multiple=True, metavar="DIM=VALUE", help="Exact bound: same min and max.")
@click.option(
    "--max-ranges",
    default=64,
    show_default=True,
    type=click.IntRange(min=1),
    help="Range budget of the query: how many (lo, hi) key ranges it may issue.",
)
@click.option("--workload", type=click.Path(exists=True, dir_okay=False, path_type=Path), help=WORKLOAD_HELP)
def zplan(
    schema_text: str,
    lower: tuple[str, ...],
    upper: tuple[str, ...],
    equal: tuple[str, ...],
    max_ranges: int,
    workload: Path | None,
) -> None:
    """Plan a Z-order index: estimate a query's cost on a schema and rank attributes for the schema.

    Dimensions without --min/--max/--eq are unbounded. Example:

    \b
      tatami zplan --schema latitude:fixed:-90:90:16,longitude:fixed:-180:180:16,population:uint:32 \\
        --min latitude=35 --max latitude=36 --min longitude=139 --max longitude=140 \\
        --workload workload.json
    """
    try:
        schema = load_schema(schema_text)
        exact = parse_bounds(schema, equal, "--eq")
        low = {**parse_bounds(schema, lower, "--min"), **exact}
        high = {**parse_bounds(schema, upper, "--max"), **exact}
        click.echo(render(schema, (low, high), max_ranges))
        if workload is not None:
            advice = advise(load_workload(workload), attributes=schema.names)
            click.echo(f"\nAttribute advice ({workload.name}: frequently bound AND highly selective)")
            click.echo(advice_table(advice))
    except (ValueError, TypeError) as exc:
        raise click.ClickException(str(exc)) from None
