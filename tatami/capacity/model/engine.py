"""The simulation clock and the admission of requests: deterministic, pure Python, no AWS call.

Time advances in ticks of `tick` seconds; each tick the client offers requests (`clients`), and
each request is admitted when its partition, its table and every index it writes have allowance
left. A write whose index partition cannot take it is throttled on the base table too (GSI back
pressure, docs.aws.amazon.com/amazondynamodb/latest/developerguide/gsi-throttling.html: "If a GSI
doesn't have sufficient capacity to handle these updates, DynamoDB throttles writes to the base
table"). Every second each key space closes its accounts and splits what must split.

A *request* is a plain tuple, built by `workloads`: (space, key hash, sort key bytes, write units,
read units, bytes stored, index writes), where each index write is (space, key hash, sort key
bytes, write units). `admit(request, count)` takes `count` identical requests at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from tatami.capacity.model.space import KeySpace

__all__ = ["TICK", "Client", "Request", "Simulation"]

TICK = 0.05  # seconds; allowances hold a whole second, so finer ticks change nothing measurable
EPSILON = 1e-9  # float slack when an allowance holds exactly what a request costs

Request = tuple[Any, ...]


class Client(Protocol):
    def step(self, sim: Simulation, now: float) -> bool:
        """Offer this tick's requests through `sim.admit`; False once the client has finished."""


class Simulation:
    """Run a client against key spaces until it finishes (or `max_seconds` pass).

    >>> sim = Simulation([table]); sim.run(Loader(requests))  # doctest: +SKIP
    """

    def __init__(self, spaces: Sequence[KeySpace], tick: float = TICK, max_seconds: float = 86_400) -> None:
        self.spaces, self.tick, self.max_seconds = list(spaces), tick, max_seconds
        self.now = 0.0
        self.seconds = 0  # seconds simulated (the last one may be partial)
        self.elapsed = 0.0  # when the client finished, to the tick

    def run(self, client: Client) -> None:
        per_second = round(1 / self.tick)
        tick = 0
        while True:
            self.now = tick * self.tick
            more = client.step(self, self.now)
            tick += 1
            if tick % per_second == 0 or not more:
                self._close_second(tick * self.tick)
            if not more or self.seconds >= self.max_seconds:
                self.elapsed = tick * self.tick
                return

    def _close_second(self, now: float) -> None:
        for space in self.spaces:
            space.close_second(self.seconds, now)
        self.seconds += 1

    def admit(self, request: Request, count: int = 1) -> int:
        """Admit up to `count` copies of `request` now; how many were accepted (the rest throttled)."""
        space, key_hash, sort_key, write, read, _, indexes = request
        part = space.cache.get(key_hash) or space.locate(key_hash, sort_key)
        allowance = part.allowance
        cost = write + read * space.read_cost
        fit = allowance.left / cost
        by_table = False
        if fit + EPSILON >= 1:  # the partition has room: ask the table (and the indexes)
            table = space.table_fit(write, read)
            if table < fit:
                by_table, fit = True, table
            if indexes:
                fit = min(fit, _index_fit(indexes, count))
        accepted = count if fit + EPSILON >= count else int(fit + EPSILON)
        if accepted:
            allowance.left -= cost * accepted
            _take(space, part, request, accepted)
        if accepted < count:
            refused = count - accepted
            part.thr_w += write * refused
            part.thr_r += read * refused
            part.thr_req += refused
            space.thr_req += refused
            space.thr_table += refused if by_table else 0
        return accepted


def _take(space: KeySpace, part: Any, request: Request, accepted: int) -> None:
    """Charge the table (and the indexes) for accepted requests and file them."""
    _, key_hash, sort_key, write, read, stored, indexes = request
    part.recent.append((key_hash, sort_key, accepted))  # the key distribution it served (split points)
    space.table_take(write * accepted, read * accepted)
    part.acc_w += write * accepted
    part.acc_r += read * accepted
    part.acc_req += accepted
    space.acc_req += accepted
    if stored:
        part.stored += stored * accepted
        part.seen += accepted
        if part.seen >= part.next_sample:
            part.keep_sample((key_hash, sort_key))
    if indexes:
        _index_take(indexes, accepted)


def _index_fit(indexes: tuple[Any, ...], count: int) -> float:
    """How many of the base writes every index can take; a short index partition notes its throttles."""
    fit = float(count)
    for space, key_hash, sort_key, write in indexes:
        part = space.locate(key_hash, sort_key)
        here = min(part.allowance.left / write, space.table_fit(write, 0.0))
        if here + EPSILON < count:
            part.thr_w += write * (count - int(here + EPSILON))
            part.thr_req += count - int(here + EPSILON)
            space.thr_req += count - int(here + EPSILON)
        fit = min(fit, here)
    return fit


def _index_take(indexes: tuple[Any, ...], accepted: int) -> None:
    for space, key_hash, sort_key, write in indexes:
        part = space.locate(key_hash, sort_key)
        part.recent.append((key_hash, sort_key, accepted))
        part.allowance.left -= write * accepted
        space.table_take(write * accepted, 0.0)
        part.acc_w += write * accepted
        part.acc_req += accepted
        space.acc_req += accepted
