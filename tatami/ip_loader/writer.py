"""The loader's parallel writers: the chunks of a new version, and the sweep of older versions.

Threads share one boto3 client (thread-safe) and write batches of 25. A chunk is recorded in the
manifest only after all of its batches landed, so an interrupted load resumes at chunk granularity
and rewrites at most the chunks that were in flight (puts are idempotent).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

from tatami.ip_loader.exceptions import InterruptedLoadError
from tatami.ip_loader.store import BATCH, RangesStore
from tatami_functions.ip_lookup.keys import Piece

WriteProgress = Callable[[int, int], None]  # (chunks written, chunks in all)


class ChunkWriter:
    """Writes the chunks not done yet with `workers` threads; `written`, `wcu`, `seconds` after `run`.

    For example (not run as a doctest)::

        ChunkWriter(store, 2, "load-id").run(chunks(pieces, "load-id"), frozenset(), 8)
    """

    def __init__(
        self, store: RangesStore, version: int, load_id: str, progress: WriteProgress | None = None
    ) -> None:
        self.store, self.version, self.load_id = store, version, load_id
        self.progress: WriteProgress = progress or (lambda _done, _total: None)
        self.lock, self.stop = threading.Lock(), threading.Event()
        self.written, self.wcu, self.seconds = 0, 0.0, 0.0
        self.finished = 0  # chunks recorded in the manifest by this run
        self._counted = self._total = 0

    def run(self, parts: list[list[Piece]], done: frozenset[int], workers: int) -> None:
        """Write every chunk whose index is not in `done`; InterruptedLoadError if any batch failed."""
        self._total, self._counted = sum(len(p) for p in parts), sum(len(parts[i]) for i in done)
        self.progress(self._counted, self._total)
        began = time.monotonic()
        with ThreadPoolExecutor(workers, thread_name_prefix="load-ip") as pool:
            futures = [pool.submit(self._chunk, i, parts[i]) for i in range(len(parts)) if i not in done]
            try:
                finished, _ = wait(futures, return_when=FIRST_EXCEPTION)
                failure = next((f.exception() for f in finished if f.exception()), None)
            except BaseException as exc:  # noqa: BLE001 - Ctrl-C while waiting stops the workers too
                failure = exc
            if failure is not None:  # stop the others; the manifest keeps what finished
                self.stop.set()
                pool.shutdown(wait=True, cancel_futures=True)
                landed = len(done) + self.finished
                raise InterruptedLoadError(
                    f"v{self.version} stopped after {landed} of {len(parts)} chunks "
                    f"({str(failure) or type(failure).__name__}); run the same command again to resume"
                ) from failure
        self.seconds = time.monotonic() - began

    def _chunk(self, index: int, pieces: list[Piece]) -> None:
        for start in range(0, len(pieces), BATCH):
            if self.stop.is_set():
                return  # not recorded as done: a resumed load writes this chunk again
            batch = pieces[start : start + BATCH]
            wcu = self.store.write([{"PutRequest": {"Item": piece.item(self.version)}} for piece in batch])
            with self.lock:
                self.wcu += wcu
                self.written += len(batch)
                self._counted += len(batch)
                self.progress(self._counted, self._total)
        self.store.mark_done(self.load_id, index)
        with self.lock:
            self.finished += 1


def sweep_versions_before(store: RangesStore, live: int, segments: int) -> int:
    """Delete every item and manifest of versions older than `live` (a parallel scan); the count.

    For example (not run as a doctest)::

        sweep_versions_before(store, live=5, segments=8)
        # -> 3967
    """

    def sweep(segment: int) -> int:
        removed, keys = 0, []
        for key in store.stale_keys(live, segment, segments):
            keys.append(key)
            if len(keys) == BATCH:
                store.write([{"DeleteRequest": {"Key": k}} for k in keys])
                removed, keys = removed + len(keys), []
        if keys:
            store.write([{"DeleteRequest": {"Key": k}} for k in keys])
        return removed + len(keys)

    with ThreadPoolExecutor(segments, thread_name_prefix="sweep-ip") as pool:
        return sum(pool.map(sweep, range(segments)))
