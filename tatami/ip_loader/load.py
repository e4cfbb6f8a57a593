"""One load: validate, plan, write version N+1 in parallel, verify, switch the alias, remove old versions.

Readers never see a half-loaded dataset: items of the new version live under their own partition
keys, and the alias moves (one conditional write) only after every chunk landed and a count per
partition matched the plan. A load interrupted anywhere resumes when the same command runs again:
the manifest (keyed by the files' digest) records the version and the chunks already written.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tatami.ip_loader.exceptions import InvalidSourceError, VerificationError
from tatami.ip_loader.plan import CHUNK_ITEMS, Plan, chunks, plan
from tatami.ip_loader.source import MAX_REPORTED, read_source
from tatami.ip_loader.store import Manifest, RangesStore
from tatami.ip_loader.writer import ChunkWriter, WriteProgress, sweep_versions_before
from tatami_functions.ip_lookup.keys import IPV6_PREFIX, Pointer, partition_key
from tatami_functions.ip_lookup.settings import DEFAULT_TTL


@dataclass(frozen=True)
class LoadOptions:
    workers: int = 8
    ipv6_prefix: int = IPV6_PREFIX
    grace: float = DEFAULT_TTL + 5  # lookup functions cache the alias for DEFAULT_TTL seconds
    force: bool = False  # load again even when these files are already live
    chunk_items: int = CHUNK_ITEMS


@dataclass
class LoadSummary:
    rows: int
    items: int
    gaps: int
    splits: int
    partition_keys: int  # partition key values (prefixes), not the table's partitions
    version: int | None = None
    written: int = 0  # items written by this run (a resumed run skips finished chunks)
    resumed_chunks: int = 0
    write_seconds: float = 0.0
    seconds: float = 0.0
    wcu: float = 0.0
    previous: int | None = None
    removed: int = 0
    already_live: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def items_per_second(self) -> float:
        return self.written / self.write_seconds if self.write_seconds else 0.0

    def describe(self) -> str:
        """Rows, items, gaps, splits and partition keys, as one phrase.

        >>> LoadSummary(rows=3, items=5, gaps=2, splits=0, partition_keys=1).describe()
        '3 rows -> 5 items (2 gaps, 0 splits) under 1 partition key'
        """
        keys = f"{self.partition_keys:,} partition key{'' if self.partition_keys == 1 else 's'}"
        return (
            f"{self.rows:,} rows -> {self.items:,} items ({self.gaps:,} gaps, "
            f"{self.splits:,} splits) under {keys}"
        )


@dataclass(frozen=True)
class Prepared:
    """A validated, planned load; `load_id` (the files' digest and the prefixes) keys its manifest."""

    plan: Plan
    load_id: str
    sources: str

    def summary(self) -> LoadSummary:
        planned = self.plan
        pieces, keys = len(planned.pieces), len(planned.per_partition)
        return LoadSummary(planned.rows, pieces, planned.gaps, planned.splits, keys)


def prepare(paths: Sequence[Path], ipv6_prefix: int = IPV6_PREFIX) -> Prepared:
    """Read, validate and plan (all that `--dry-run` does); every problem of every file is listed.

    For example (not run as a doctest)::

        prepare([Path("ranges.csv")]).summary().describe()
        # -> '3,644 rows -> 3,967 items (323 gaps, 0 splits) under 10 partition keys'
    """
    source = read_source(paths, check=False)
    problems, more = list(source.problems), source.more
    try:
        planned = plan(source.rows, ipv6_prefix=ipv6_prefix)
    except InvalidSourceError as exc:  # overlaps and oversized rows among the rows that parsed
        problems, more = problems + exc.problems, more + exc.more
    if problems:
        problems.sort(key=_position)
        raise InvalidSourceError(problems[:MAX_REPORTED], more + max(0, len(problems) - MAX_REPORTED))
    load_id = f"{source.digest[:32]}-p{planned.ipv4_prefix}-{planned.ipv6_prefix}"
    return Prepared(planned, load_id, ", ".join(path.name for path in paths))


def _position(problem: str) -> tuple[str, int]:
    name, _, rest = problem.partition(":")
    line = rest.split(":", 1)[0]
    return name, int(line) if line.isdigit() else 0


def load(
    prepared: Prepared,
    store: RangesStore,
    options: LoadOptions | None = None,
    progress: WriteProgress | None = None,
    log: Callable[[str], None] | None = None,
) -> LoadSummary:
    """Load a prepared dataset as the new live version and return what happened.

    For example (not run as a doctest)::

        load(prepare([Path("ranges.csv")]), RangesStore(client, "Tatami-Ranges")).version
        # -> 1
    """
    options, log = options or LoadOptions(), log or (lambda _line: None)
    started = time.monotonic()
    summary, live = prepared.summary(), store.pointer()
    manifest = store.manifest(prepared.load_id)
    if manifest and live and manifest.version == live.version and not options.force:
        summary.version, summary.already_live = live.version, True
        if manifest.status != "live":  # stopped after the switch: finish removing older versions
            summary.removed = _finish(store, prepared.load_id, live.version, options, log)
        return summary
    parts = chunks(prepared.plan.pieces, prepared.load_id, options.chunk_items)
    version, done = _version_to_write(store, prepared, manifest, live, len(parts), log)
    summary.version, summary.resumed_chunks = version, len(done)
    writer = ChunkWriter(store, version, prepared.load_id, progress)
    writer.run(parts, done, options.workers)
    summary.written, summary.wcu, summary.write_seconds = writer.written, writer.wcu, writer.seconds
    _verify(store, version, prepared, options.workers)
    summary.previous = live.version if live else None
    store.switch(_alias(prepared), version)
    log(f"switched lookups to v{version}")
    summary.removed = _finish(store, prepared.load_id, version, options, log, sweep=live is not None)
    summary.seconds = time.monotonic() - started
    return summary


def _version_to_write(
    store: RangesStore,
    prepared: Prepared,
    manifest: Manifest | None,
    live: Pointer | None,
    chunk_count: int,
    log: Callable[[str], None],
) -> tuple[int, frozenset[int]]:
    """Resume this load's unfinished version if it is still newer than the live one, else start anew."""
    if manifest and manifest.status == "loading" and (live is None or manifest.version > live.version):
        log(f"resuming v{manifest.version}: {len(manifest.done)} of {chunk_count} chunks were written before")
        return manifest.version, manifest.done
    version = store.next_version()
    store.start_manifest(prepared.load_id, version, chunk_count, prepared.sources)
    return version, frozenset()


def _verify(store: RangesStore, version: int, prepared: Prepared, workers: int) -> None:
    expected = {partition_key(version, prefix): n for prefix, n in prepared.plan.per_partition.items()}
    with ThreadPoolExecutor(workers, thread_name_prefix="verify-ip") as pool:
        counted = dict(zip(expected, pool.map(store.count, expected), strict=True))
    wrong = [f"{pk}: {counted[pk]} of {n}" for pk, n in expected.items() if counted[pk] != n]
    if wrong:
        store.forget_progress(prepared.load_id)  # the rerun rewrites every chunk (puts are idempotent)
        raise VerificationError(
            f"v{version} was not switched in: {len(wrong)} partition(s) hold the wrong number of items "
            f"({'; '.join(wrong[:5])}); run the same command again to rewrite it"
        )


def _alias(prepared: Prepared) -> dict[str, dict[str, str]]:
    planned = prepared.plan
    return {
        "ipv4_prefix": {"N": str(planned.ipv4_prefix)},
        "ipv6_prefix": {"N": str(planned.ipv6_prefix)},
        "rows": {"N": str(planned.rows)},
        "items": {"N": str(len(planned.pieces))},
        "load_id": {"S": prepared.load_id},
        "sources": {"S": prepared.sources},
        "switched": {"S": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
    }


def _finish(
    store: RangesStore,
    load_id: str,
    live: int,
    options: LoadOptions,
    log: Callable[[str], None],
    sweep: bool = True,
) -> int:
    """Remove older versions, then mark the load live: a rerun after a stop here finishes the sweep."""
    removed = 0
    if sweep:
        if options.grace > 0:
            log(f"waiting {options.grace:.0f} s for cached pointers to the old version to expire")
            time.sleep(options.grace)
        removed = sweep_versions_before(store, live, max(1, options.workers))
        log(f"removed {removed:,} items of older versions")
    store.mark_live(load_id)
    return removed
