"""The simulation clock and the admission of requests: deterministic, pure Python, no AWS call.

The clock is driven by the client (`tatami.capacity.workloads.clients`): it says when it acts
next (a worker's call returns, a retry is due, the next arrivals), the simulation closes every
second it passes (each key space files its accounts and splits what must split), and the client
offers its requests through `admit`. A request is admitted when its partition, its table (and its
quota) and every index it writes have allowance left. A write whose index partition cannot take
it is throttled on the base table too (GSI back pressure,
docs.aws.amazon.com/amazondynamodb/latest/developerguide/gsi-throttling.html: "If a GSI doesn't
have sufficient capacity to handle these updates, DynamoDB throttles writes to the base table").

A transaction is admitted the same way: all its items or none (transaction-apis.html), its first
item the request, the others beside it; an item with no room throttles the whole transaction.

A *request* is a plain tuple, built by `workloads`: (space, key hash, sort key bytes, write units,
read units, bytes stored, other items), where each other item is an index write (space, key hash,
sort key bytes, write units) or a transaction's item (the same, then read units). `admit(request,
count)` takes `count` identical requests at once.
"""

from __future__ import annotations

import contextlib
import gc
import math
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from tatami.capacity.model.space import ACC_REQ, INDEX, REFUSED, KeySpace

__all__ = ["Client", "Request", "Simulation", "no_cycle_collection"]

EPSILON = 1e-9  # float slack when an allowance holds exactly what a request costs

Request = tuple[Any, ...]


class Client(Protocol):
    def next_time(self) -> float | None:
        """When the client acts next (simulated seconds); None once it has finished."""

    def act(self, sim: Simulation, now: float) -> None:
        """Offer what is due at `now` through `sim.admit`."""

    def finished(self) -> float:
        """When the client's last call returned (its last response, or its last arrival)."""


class Simulation:
    """Run a client against key spaces until it finishes (or `max_seconds` pass).

    >>> sim = Simulation([table]); sim.run(BatchLoader(requests, SdkClient()))  # doctest: +SKIP
    """

    def __init__(self, spaces: Sequence[KeySpace], max_seconds: float = 86_400) -> None:
        self.spaces, self.max_seconds = list(spaces), max_seconds
        self.now = 0.0
        self.seconds = 0  # seconds simulated (the last one may be partial)
        self.elapsed = 0.0  # when the client finished
        self.refused = 0  # requests of the last `admit` refused for good (an item collection is full)

    def run(self, client: Client) -> None:
        while (at := client.next_time()) is not None and at < self.max_seconds:
            while at >= self.seconds + 1:
                self._close_second()
            self.now = at
            client.act(self, at)
        self.elapsed = min(self.max_seconds, max(self.now, client.finished()))
        while self.seconds < max(1, math.ceil(self.elapsed - EPSILON)):
            self._close_second()

    def _close_second(self) -> None:
        for space in self.spaces:
            space.close_second(self.seconds, self.seconds + 1.0)
        self.seconds += 1

    def admit(self, request: Request, count: int = 1) -> int:  # noqa: C901 - the hot path, flat on purpose
        """Admit up to `count` copies of `request` now; how many were accepted (the rest throttled).

        The hot path of every run (once per item and attempt): kept flat on purpose, with the common
        case (one table-level allowance, no other item) inlined.
        """
        space, key_hash, sort_key, write, read, stored, others = request
        part = space.cache.get(key_hash) or space.locate(key_hash, sort_key)
        now, cost = self.now, write + read * space.read_cost
        self.refused = 0
        if stored and space.lsi:
            count = self._room(space, key_hash, stored, count)
        fit, cause = part.allowance.available(now) / cost, ""
        single = space.table.single
        if fit + EPSILON >= 1:  # the partition has room: ask the table (and the other items)
            if single is not None:
                table = single.allowance.available(now) / (
                    write * single.write_cost + read * single.read_cost
                )
                if table < fit:
                    fit, cause = table, single.kind
            else:
                fit, cause = _table_fit(space, write, read, now, fit)
            if others:
                other = _others_fit(others, count, now)
                if other < fit:
                    fit, cause = other, INDEX
        accepted = count if fit + EPSILON >= count else max(0, int(fit + EPSILON))
        if accepted < count:
            space.throttled(part, write, read, count - accepted, cause)
            if not accepted:
                return 0
        # charge the partition, the table (and the other items), and file what it served
        part.allowance.left -= cost * accepted
        if single is not None:
            single.allowance.left -= (write * single.write_cost + read * single.read_cost) * accepted
        else:
            space.table.take(write * accepted, read * accepted)
        part.recent.append((key_hash, sort_key, accepted))  # the key distribution it served (split points)
        served = part.keys_now
        served[key_hash] = served.get(key_hash, 0.0) + cost * accepted
        part.acc_w += write * accepted
        part.acc_r += read * accepted
        part.acc_req += accepted
        space.current[ACC_REQ] += accepted
        if stored:
            part.stored += stored * accepted
            part.seen += accepted
            if space.lsi or part.seen >= part.next_sample:
                _store(space, part, key_hash, sort_key, stored * accepted)
        if others:
            _others_take(others, accepted)
        return accepted

    def _room(self, space: KeySpace, key_hash: int, stored: float, count: int) -> int:
        room = space.collection_room(key_hash, stored, count)
        if room < count:
            self.refused = count - room
            space.current[REFUSED] += count - room
            space.refused_keys[key_hash] += count - room
        return room


def _table_fit(space: KeySpace, write: float, read: float, now: float, fit: float) -> tuple[float, str]:
    """The requests the partition (`fit`) and every table-level limit admit; the rule binding ("": none)."""
    table, kind = space.table.fit(write, read, now)
    return (table, kind) if table < fit else (fit, "")


def _store(space: KeySpace, part: Any, key_hash: int, sort_key: bytes, stored: float) -> None:
    """File the bytes written in an item collection (with an LSI) and the data's sample (splits for size)."""
    if space.lsi:
        space.collections[key_hash] += stored
    if part.seen >= part.next_sample:
        part.keep_sample((key_hash, sort_key))


def _parts(other: tuple[Any, ...]) -> tuple[Any, int, bytes, float, float]:
    """An index write (space, hash, sort key, write units) or a transaction's item (... read units)."""
    return (*other[:4], other[4] if len(other) > 4 else 0.0)


def _others_fit(others: tuple[Any, ...], count: int, now: float) -> float:
    """How many requests every other item (index writes, a transaction's items) can take; a short one notes
    its throttles on its own key space."""
    fit = float(count)
    for other in others:
        space, key_hash, sort_key, write, read = _parts(other)
        part = space.locate(key_hash, sort_key)
        own = part.allowance.available(now) / (write + read * space.read_cost)
        table, kind = space.table.fit(write, read, now)
        here = min(own, table)
        if here + EPSILON < count:
            refused = count - max(0, int(here + EPSILON))
            space.throttled(part, write, read, refused, "" if own <= table else kind)
        fit = min(fit, here)
    return fit


def _others_take(others: tuple[Any, ...], accepted: int) -> None:
    for other in others:
        space, key_hash, sort_key, write, read = _parts(other)
        part = space.locate(key_hash, sort_key)
        cost = (write + read * space.read_cost) * accepted
        part.recent.append((key_hash, sort_key, accepted))
        part.keys_now[key_hash] = part.keys_now.get(key_hash, 0.0) + cost
        part.allowance.left -= cost
        space.table.take(write * accepted, read * accepted)
        part.acc_w += write * accepted
        part.acc_r += read * accepted
        part.acc_req += accepted
        space.current[ACC_REQ] += accepted


@contextlib.contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused: a run makes millions of small objects and no cycles worth
    collecting before it ends, and the collector's passes over them cost a fifth of a large run."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
