"""One partition: its range of the key space, its allowance, what it served, what it saw lately.

A partition may consume `partition_write_units` a second (reads cost a third of a unit each:
AWS's "linear combination of both"), accounted per calendar second or as a token bucket
(`choices.accounting`). Every second the simulation closes its accounts (`close_second`); a second
in which the partition refused requests of its own (not the table's), or ran near its limit, leaves
a `Top`: the keys it served most, which is what a verdict names.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from tatami.capacity.model.allowance import Allowance
from tatami.capacity.model.keys import Position

__all__ = ["RECENT", "SAMPLE", "Partition", "Top"]

RECENT = 256  # accesses a partition remembers to choose a split point (its observed key distribution)
SAMPLE = 128  # stored positions kept (a systematic sample) to split for size at the median of its data


class Top(NamedTuple):
    """A second in which a partition throttled on its own limit or ran near it, and whom it served."""

    second: int
    throttled: bool  # it refused requests of its own (else it only ran near its limit)
    key: int  # the partition key (hash) it served the most units that second
    share: float  # ... its share of the units the partition served
    runner_up: int  # the next one (-1 if none)
    runner_up_share: float
    one_item: bool  # every access the partition remembers is one item (one key and sort key)
    keys: int  # distinct partition keys served that second
    used: float  # units served that second (in write units)
    own: int  # requests it refused on its own limit that second


class Partition:
    """A range of positions from `low` up to the next partition's `low`."""

    __slots__ = (
        "acc_r",
        "acc_req",
        "acc_w",
        "allowance",
        "born",
        "keys_now",
        "low",
        "next_sample",
        "parent",
        "pid",
        "recent",
        "sample",
        "seen",
        "series",
        "stored",
        "streak",
        "stride",
        "thr_own",
        "thr_r",
        "thr_req",
        "thr_w",
        "tops",
        "used",
    )

    def __init__(
        self, pid: int, low: Position, allowance: Allowance, born: float = 0.0, parent: int = -1
    ) -> None:
        self.pid, self.low, self.allowance, self.born, self.parent = pid, low, allowance, born, parent
        self.acc_w = self.thr_w = self.acc_r = self.thr_r = 0.0  # units in the current second
        self.acc_req = self.thr_req = 0  # requests in the current second
        self.thr_own = 0  # ... throttled by this partition's own allowance (not the table's)
        self.keys_now: dict[int, float] = {}  # key hash -> units served this second
        self.tops: list[Top] = []
        # second -> units accepted and throttled (writes, reads), requests accepted and throttled
        self.series: dict[int, tuple[float, ...]] = {}
        self.recent: deque[tuple[int, bytes, int]] = deque(maxlen=RECENT)  # (hash, sort key, requests)
        self.streak = 0  # consecutive seconds near or over the limit
        self.used = 0.0  # write units used in the last closed second
        self.stored = 0.0  # bytes written into it (an upper bound: overwrites count again)
        self.sample: list[Position] = []
        self.seen = 0  # writes stored
        self.stride, self.next_sample = 1, 1

    def close_second(self, second: int, read_cost: float, near: float) -> tuple[float, int]:
        """File this second's accounts; (units used, in write units; requests it throttled itself).

        `near`: the units at which a second counts as near the limit (it leaves a `Top`).
        """
        used = self.used = self.acc_w + self.acc_r * read_cost
        own = self.thr_own
        if used or self.thr_req:
            row = (self.acc_w, self.thr_w, self.acc_r, self.thr_r, self.acc_req, self.thr_req, own)
            self.series[second] = row
            self.acc_w = self.thr_w = self.acc_r = self.thr_r = 0.0
            self.acc_req = self.thr_req = self.thr_own = 0
        if own or used >= near:
            self.tops.append(self._top(second, own, used))
        self.keys_now = {}
        return used, own

    def _top(self, second: int, own: int, used: float) -> Top:
        ranked = sorted(self.keys_now.items(), key=lambda item: -item[1])[:2] + [(-1, 0.0)] * 2
        total = sum(self.keys_now.values()) or 1.0
        items = {(h, sk) for h, sk, _ in self.recent}
        (first, first_units), (second_key, second_units) = ranked[0], ranked[1]
        shares = (first, first_units / total, second_key, second_units / total)
        return Top(second, own > 0, *shares, len(items) == 1, len(self.keys_now), used, own)

    def keep_sample(self, position: Position) -> None:
        """Keep every `stride`-th write's position (the engine calls this when `seen` reaches `next_sample`).

        A systematic sample of the writes in order: when it holds 2 x SAMPLE positions, every other
        one goes and the stride doubles, so it always spans all the data with SAMPLE-2 x SAMPLE points.
        """
        self.sample.append(position)
        if len(self.sample) >= 2 * SAMPLE:
            self.sample, self.stride = self.sample[::2], self.stride * 2
        self.next_sample += self.stride

    def give_right(self, child: Partition, at: Position) -> None:
        """Hand `child` (the new right half from `at`) its share of what this partition knows."""
        left = [entry for entry in self.recent if (entry[0], entry[1]) < at]
        child.recent.extend(entry for entry in self.recent if (entry[0], entry[1]) >= at)
        self.recent.clear()
        self.recent.extend(left)
        if self.sample:
            moved = [position for position in self.sample if position >= at]
            share = len(moved) / len(self.sample)
            child.sample, self.sample = moved, [p for p in self.sample if p < at]
            child.stored, self.stored = self.stored * share, self.stored * (1 - share)
            child.seen, self.seen = round(self.seen * share), round(self.seen * (1 - share))
            child.stride = self.stride
            child.next_sample, self.next_sample = child.seen + child.stride, self.seen + self.stride
        self.streak = child.streak = 0
