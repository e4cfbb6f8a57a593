"""`tatami olap [--local] "SQL"` or `tatami olap --named NAME`: query the newest exports.

Locally DuckDB reads the local cloud's newest full export of each table (downloaded once into a
cache); in AWS Athena reads the Glue tables in the stack's workgroup. Both see the same views
(one per exported table, named after it) and run the same named queries.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from tatami.local.state import default_work_dir
from tatami.olap import athena, duck
from tatami.olap.exports import ExportReadError, FetchedExport, fetch, latest_summary
from tatami.olap.render import FORMATS, render
from tatami.olap.tables import exported_tables
from tatami.target import Target, TargetError, resolve_target
from tatami_functions.olap.catalog import named_queries, views, with_views
from tatami_functions.olap.layout import table_prefix
from tatami_functions.olap.settings import DEFAULT_PREFIX
from tatami_functions.stack_outputs import (
    OUTPUT_OLAP_BUCKET,
    OUTPUT_OLAP_DATABASE,
    OUTPUT_OLAP_TABLES,
    OUTPUT_OLAP_WORKGROUP,
)


def _help() -> str:
    lines = [
        "Run SQL (or a named query) over the newest export of each table.",
        "",
        "Views: one per exported table (every table with point-in-time recovery), named after it:",
        f"{', '.join(views())} with the columns of lambdas/tatami_functions/olap/views/*.sql, any",
        "other with one column per key attribute.",
        "",
        "\b",
        "Named queries (--named NAME):",
        *(f"  {query.name}: {query.description}" for query in named_queries().values()),
    ]
    return "\n".join(lines)


@click.command("olap", help=_help())
@click.argument("sql", required=False)
@click.option("--named", type=click.Choice(list(named_queries())), help="Run a named query instead of SQL.")
@click.option(
    "--local", is_flag=True, help="DuckDB over the running local cloud's exports (else Athena in AWS)."
)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.option("--show-sql", is_flag=True, help="Print the SQL as the engine gets it, and run nothing.")
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path),
    help="Local export copies (default: .local/olap-cache in the checkout).",
)
def olap(
    sql: str | None, named: str | None, local: bool, fmt: str, show_sql: bool, cache_dir: Path | None
) -> None:
    if (sql is None) == (named is None):
        raise click.UsageError("give either SQL or --named NAME (see `tatami olap --help`)")
    query = named_queries()[named].sql if named else str(sql)
    if show_sql:
        click.echo(query if local else with_views(query))
        return
    try:
        target = resolve_target(local)
        if target.is_local:
            columns, rows = _local(target, query, cache_dir or default_work_dir() / "olap-cache")
        else:
            columns, rows = _athena(target, query)
    except (TargetError, ExportReadError, athena.AthenaQueryError) as exc:
        raise click.ClickException(str(exc)) from None
    except duck.Error as exc:
        raise click.ClickException(f"DuckDB: {exc}") from None
    click.echo(render(columns, rows, fmt))


def fetch_latest(target: Target, cache_dir: Path) -> dict[str, FetchedExport]:
    """Table key -> its newest full export in the local cloud's S3, downloaded into `cache_dir`."""
    s3, bucket = target.client("s3"), target.output(OUTPUT_OLAP_BUCKET)
    fetched = {}
    for table in json.loads(target.output(OUTPUT_OLAP_TABLES)):  # the stack's list: every PITR table
        summary = latest_summary(s3, bucket, table_prefix(DEFAULT_PREFIX, table))
        if summary is not None:
            fetched[table] = fetch(s3, bucket, table, summary, cache_dir)
    return fetched


def _local(target: Target, sql: str, cache_dir: Path) -> duck.Result:
    tables = exported_tables(target)
    fetched = fetch_latest(target, cache_dir)
    if not fetched:
        raise click.ClickException(
            "the local cloud has no export yet: run `tatami export --local` "
            "(or `tatami local fire ExportSchedule`)"
        )
    for export in fetched.values():
        when = export.summary.get("exportTime", "?")
        click.echo(
            f"{export.table}: export {export.export_id} of {when}, {export.item_count:,} items", err=True
        )
    missing = sorted(set(tables) - set(fetched))
    if missing:
        click.echo(f"no export yet of {', '.join(missing)}: their views are empty", err=True)
    connection = duck.connect({table: export.paths for table, export in fetched.items()}, tables=tables)
    return duck.run(connection, sql)


def _athena(target: Target, sql: str) -> athena.Result:
    return athena.run(
        target.client("athena"),
        sql,
        target.output(OUTPUT_OLAP_DATABASE),
        target.output(OUTPUT_OLAP_WORKGROUP),
        tables=exported_tables(target),
    )
