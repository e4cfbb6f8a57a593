"""A table's or an index's key space: its partitions, its table-level allowance, and its splits.

Partitions split, never merge (Part 3 of seed 003's series). They split:

- for heat: after `heat_split_seconds` of running near their limit, at the point the observed key
  distribution suggests (the paper's split for consumption), unless the traffic is one item or
  walks its key range in order, where a split cannot help (`split.heat_split_point`);
- for size: past `partition_bytes`, at the median of the data they hold;
- for throughput: when an on-demand table's allowance grows to twice an older peak, the busiest
  partitions split in the middle of their hash range until the table has enough of them.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from dataclasses import dataclass

from tatami.capacity.model.capacity import ON_DEMAND, Allowance, Capacity
from tatami.capacity.model.keys import HASH_SPACE, Position
from tatami.capacity.model.limits import Limits
from tatami.capacity.model.partition import Partition
from tatami.capacity.model.split import heat_split_point, middle_of, size_split_point

__all__ = ["ACC_R", "ACC_REQ", "ACC_W", "THR_R", "THR_REQ", "THR_TABLE", "THR_W", "KeySpace", "Split"]

# The columns of KeySpace.totals (one row a second): units accepted and throttled (writes, reads),
# requests accepted and throttled, and requests throttled by the table-level allowance.
ACC_W, THR_W, ACC_R, THR_R, ACC_REQ, THR_REQ, THR_TABLE = range(7)


@dataclass(frozen=True, slots=True)
class Split:
    second: int
    pid: int  # the partition that split (it keeps the left half)
    child: int  # the new partition (the right half)
    reason: str  # "heat", "size" or "throughput"


class KeySpace:
    """The partitions of one table or index, created as a new table with `capacity` would have them."""

    def __init__(self, name: str, capacity: Capacity, limits: Limits, seed: int = 0) -> None:
        self.name, self.capacity, self.limits = name, capacity, limits
        self.rng = random.Random(f"{seed}:{name}")
        self.read_cost = limits.read_cost
        self.table = capacity.allowances(limits)
        self.window = max(1, round(limits.window_seconds))
        self.partitions: list[Partition] = []
        self.lows: list[Position] = []
        self.cache: dict[int, Partition] = {}  # key hash -> partition, for collections not split
        self.splits: list[Split] = []
        # second -> accepted W, throttled W, accepted R, throttled R, requests accepted, throttled,
        # throttled by the table-level allowance
        self.totals: dict[int, tuple[float, ...]] = {}
        self.acc_req = self.thr_req = 0
        self.thr_table = 0  # requests throttled by the table-level allowance (not a partition's)
        self._minutes: list[float] = []  # used write units per minute (on-demand peak tracking)
        self._minute_used = 0.0
        self._next_pid = 0
        count = capacity.partitions(limits)
        for i in range(count):
            self.partitions.append(self._partition(((i * HASH_SPACE) // count, b""), 0.0, -1))
            self.lows.append(self.partitions[-1].low)

    def _partition(self, low: Position, born: float, parent: int) -> Partition:
        self._next_pid += 1
        allowance = Allowance(self.limits.partition_write_units * self.window)
        return Partition(self._next_pid - 1, low, allowance, born, parent)

    def locate(self, key_hash: int, sort_key: bytes) -> Partition:
        """The partition holding position (key_hash, sort_key)."""
        part = self.cache.get(key_hash)
        if part is not None:
            return part
        lows = self.lows
        index = bisect_right(lows, (key_hash, b"")) - 1
        if index + 1 < len(lows) and lows[index + 1][0] == key_hash:  # the item collection is split
            return self.partitions[bisect_right(lows, (key_hash, sort_key)) - 1]
        part = self.cache[key_hash] = self.partitions[index]
        return part

    def table_fit(self, write: float, read: float) -> float:
        """How many requests of `write` and `read` units the table-level allowance still admits."""
        if len(self.table) == 1:  # on-demand: one allowance (the common case, kept short)
            allowance, write_cost, read_cost = self.table[0]
            return allowance.left / (write * write_cost + read * read_cost)
        fit = math.inf
        for allowance, write_cost, read_cost in self.table:
            cost = write * write_cost + read * read_cost
            if cost:
                fit = min(fit, allowance.left / cost)
        return fit

    def table_take(self, write: float, read: float) -> None:
        for allowance, write_cost, read_cost in self.table:
            allowance.left -= write * write_cost + read * read_cost

    def close_second(self, second: int, now: float) -> None:
        """File every partition's accounts, then split what must split."""
        limits, sums = self.limits, [0.0, 0.0, 0.0, 0.0]
        used_total = 0.0
        for part in list(self.partitions):
            for i, units in enumerate((part.acc_w, part.thr_w, part.acc_r, part.thr_r)):
                sums[i] += units
            used, throttled = part.close_second(second, self.read_cost)
            used_total += used
            near = used >= limits.heat_utilization * limits.partition_write_units
            part.streak = part.streak + 1 if near or throttled else 0
            if part.streak >= limits.heat_split_seconds:
                self._split(part, heat_split_point(part, limits), second, now, "heat")
            if part.stored > limits.partition_bytes:
                self._split(part, size_split_point(part), second, now, "size")
        if any(sums) or self.acc_req or self.thr_req:
            self.totals[second] = (*sums, float(self.acc_req), float(self.thr_req), float(self.thr_table))
            self.acc_req = self.thr_req = self.thr_table = 0
        if self.capacity.mode == ON_DEMAND:
            self._follow_peak(second, now, used_total)
        if (second + 1) % self.window == 0:
            for part in self.partitions:
                part.allowance.renew()
            for allowance, _, _ in self.table:
                allowance.renew()

    def _split(self, part: Partition, at: Position | None, second: int, now: float, reason: str) -> None:
        if at is None:
            part.streak = 0  # DynamoDB saw that a split would not help; it looks again later
            return
        index = self.partitions.index(part)
        child = self._partition(at, now, part.pid)
        part.give_right(child, at)
        part.used = child.used = part.used / 2  # until the next second tells how the traffic split
        self.partitions.insert(index + 1, child)
        self.lows.insert(index + 1, at)
        self.cache.clear()
        self.splits.append(Split(second, part.pid, child.pid, reason))

    def high_of(self, part: Partition) -> Position:
        index = self.partitions.index(part)
        return self.lows[index + 1] if index + 1 < len(self.lows) else (HASH_SPACE, b"")

    def _follow_peak(self, second: int, now: float, used: float) -> None:
        """On-demand: the allowance becomes twice the busiest minute that is old enough."""
        self._minute_used += used
        if (second + 1) % 60:
            return
        self._minutes.append(self._minute_used / 60)
        self._minute_used = 0.0
        old_enough = len(self._minutes) - math.ceil(self.limits.on_demand_peak_seconds / 60)
        if old_enough <= 0:
            return
        table = self.table[0][0]
        rate = self.limits.on_demand_peak_factor * max(self._minutes[:old_enough])
        if rate * self.window > table.limit:
            table.limit = rate * self.window
            self._add_partitions(math.ceil(rate / self.limits.partition_write_units), second, now)

    def _add_partitions(self, wanted: int, second: int, now: float) -> None:
        while len(self.partitions) < wanted:
            busiest = max(self.partitions, key=lambda p: (p.used, -p.pid))
            at = middle_of(busiest.low, self.high_of(busiest))
            if at is None:
                return
            self._split(busiest, at, second, now, "throughput")
