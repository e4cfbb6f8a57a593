"""`tatami scan TABLE`: count or export a table with N parallel segments, with progress, resumable.

A thin shell over `tatami.scan.parallel_scan` (seed 004's sequential vs parallel scan lab). TABLE
is a stack output key (`LogfileTableName`, or just `Logfile`) or a table name. An export writes one
part file per segment, so segments never wait on each other, and joins them at the end; the
checkpoint keeps each part's length with its segment's key, so `--resume` cuts a part back to
what the checkpoint vouches for and no item is written twice or lost.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import click
from botocore.exceptions import BotoCoreError, ClientError

from tatami.scan import Checkpoint, ScanSummary, parallel_scan
from tatami.target import Target, TargetError, resolve_target
from tatami_functions.common import attribute_values


def resolve_table(target: Target, name: str) -> str:
    """The physical table behind TABLE: a stack output (with or without `TableName`), else the name.

    >>> resolve_table(Target("local", {"LogfileTableName": "Tatami-Logfile"}), "Logfile")
    'Tatami-Logfile'
    """
    for key in (name, f"{name}TableName"):
        if key in target.outputs:
            return target.outputs[key]
    return name


def as_json(item: dict[str, Any], plain: bool) -> str:
    """One item as a JSON line: DynamoDB's export form `{"Item": {...}}`, or plain values.

    >>> as_json({"PK": {"S": "a"}, "n": {"N": "1.5"}, "b": {"B": b"hi"}}, plain=True)
    '{"PK": "a", "n": 1.5, "b": "aGk="}'
    """
    if plain:
        return json.dumps(attribute_values.plain(item), ensure_ascii=False)
    return json.dumps({"Item": item}, default=attribute_values.binary_as_base64, ensure_ascii=False)


class PartFiles:
    """One file per segment; each page is appended and its new length staged for the checkpoint."""

    def __init__(self, output: Path, checkpoint: Checkpoint, plain: bool) -> None:
        self.output, self.checkpoint, self.plain = output, checkpoint, plain
        for segment in range(checkpoint.segments):
            part = self.part(segment)
            vouched = int(checkpoint.progress.get(str(segment), 0))
            with part.open("ab") as file:  # creates it; cut what no checkpoint vouches for
                file.truncate(vouched)

    def part(self, segment: int) -> Path:
        return self.output.with_name(f"{self.output.name}.part{segment:04d}")

    def page(self, segment: int, items: list[dict[str, Any]]) -> None:
        lines = "".join(as_json(item, self.plain) + "\n" for item in items).encode()
        with self.part(segment).open("ab") as file:
            file.write(lines)
            file.flush()
            self.checkpoint.stage(segment, file.tell())

    def join(self) -> None:
        """The parts, in segment order, become the output file."""
        with self.output.open("wb") as joined:
            for segment in range(self.checkpoint.segments):
                with self.part(segment).open("rb") as part:
                    shutil.copyfileobj(part, joined)
                self.part(segment).unlink()


def default_checkpoint(output: Path | None, target: Target, table: str) -> Path:
    if output is not None:
        return output.with_name(f"{output.name}.checkpoint.json")
    return Path(".local") / "scan" / f"{target.name}-{table}.count.json"


@click.command("scan")
@click.argument("table")
@click.option("--local", is_flag=True, help="Scan the running local cloud instead of the deployed stack.")
@click.option(
    "--segments", default=4, show_default=True, type=click.IntRange(1, 1000), help="Parallel segments."
)
@click.option("--count-only", is_flag=True, help="Only count the items (the default without --output).")
@click.option("--output", type=click.Path(dir_okay=False, path_type=Path), help="Write items to FILE.jsonl.")
@click.option("--plain", is_flag=True, help="With --output: plain JSON values instead of DynamoDB JSON.")
@click.option("--resume", is_flag=True, help="Continue an interrupted scan from its checkpoint.")
@click.option("--checkpoint", type=click.Path(dir_okay=False, path_type=Path), help="Checkpoint file.")
@click.option("--page-size", type=click.IntRange(1, 10_000), help="Items per Scan call (Limit).")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def scan(
    table: str,
    local: bool,
    segments: int,
    count_only: bool,
    output: Path | None,
    plain: bool,
    resume: bool,
    checkpoint: Path | None,
    page_size: int | None,
    no_progress: bool,
) -> None:
    """Read every item of TABLE with parallel segments: count them, or export them as JSON lines.

    TABLE is a stack output key (e.g. LogfileTableName or Logfile) or a table name. Every run keeps
    a checkpoint; after an interruption, the same command with --resume continues where it stopped.
    """
    if count_only and output is not None:
        raise click.UsageError("--count-only and --output exclude each other")
    try:
        target = resolve_target(local)
        name = resolve_table(target, table)
        path = checkpoint or default_checkpoint(output, target, name)
        if not resume:
            path.unlink(missing_ok=True)
        saved = Checkpoint.open(path, name, segments)
        summary = _run(target, name, saved, output, plain, page_size, not no_progress)
    except TargetError as exc:
        raise click.ClickException(str(exc)) from None
    except ClientError as exc:
        raise click.ClickException(_explain(exc, name, target)) from None
    except BotoCoreError as exc:
        raise click.ClickException(f"cannot scan {name}: {exc}") from None
    click.echo(report(summary, name, output))


def _run(
    target: Target,
    table: str,
    saved: Checkpoint,
    output: Path | None,
    plain: bool,
    page_size: int | None,
    progress: bool,
) -> ScanSummary:
    client, segments = target.client("dynamodb"), saved.segments
    if output is None:
        ignore = lambda _segment, _items: None  # noqa: E731 - counts come from the pages themselves
        return parallel_scan(
            client,
            table,
            segments,
            ignore,
            checkpoint=saved,
            progress=progress,
            page_size=page_size,
            count_only=True,
        )
    parts = PartFiles(output, saved, plain)
    summary = parallel_scan(
        client, table, segments, parts.page, checkpoint=saved, progress=progress, page_size=page_size
    )
    parts.join()
    return summary


def report(summary: ScanSummary, table: str, output: Path | None) -> str:
    """The closing line: items (with those counted before a resume), speed, read units, where to."""
    total = summary.items + summary.resumed_items
    resumed = (
        f" ({summary.resumed_items:,} of them counted before resuming {summary.resumed_segments} segments)"
        if summary.resumed_items
        else ""
    )
    where = f" -> {output}" if output is not None else ""
    return f"{table}: {total:,} items{resumed}{where}\n{summary.line()}"


def _explain(exc: ClientError, table: str, target: Target) -> str:
    if exc.response["Error"]["Code"] != "ResourceNotFoundException":
        return f"cannot scan {table}: {exc}"
    known = sorted(key for key in target.outputs if key.endswith("TableName"))
    return f"no table {table} on {target.name}; table outputs: {', '.join(known) or 'none'}"
