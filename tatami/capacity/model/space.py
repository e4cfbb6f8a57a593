"""A table's or an index's key space: its partitions, its table-level limits, and its splits.

Partitions split, never merge (Part 3 of seed 003's series). They split:

- for heat: after `choices.split_delay` seconds near their own limit (only the partition's own
  pressure counts: requests the table-level limit refused say nothing about a partition), at the
  point the observed key distribution suggests (the paper's split for consumption), unless the
  traffic is one item or walks its key range in order, where a split cannot help
  (`split.heat_split_point`); with a local secondary index, never inside an item collection;
- for size: past `partition_bytes`, at the median of the data they hold;
- for throughput: when an on-demand table's allowance grows (`table.TableAllowance`), the busiest
  partitions split in the middle of their hash range until the table has enough of them.

A table with a local secondary index also caps each item collection at `item_collection_bytes`:
a write past it is refused (not throttled: AWS answers ItemCollectionSizeLimitExceededException).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass

from tatami.capacity.model.capacity import MAXIMUM, QUOTA, TABLE, Capacity
from tatami.capacity.model.choices import Choices
from tatami.capacity.model.keys import HASH_SPACE, Position
from tatami.capacity.model.limits import Limits
from tatami.capacity.model.partition import Partition
from tatami.capacity.model.split import heat_split_point, middle_of, size_split_point
from tatami.capacity.model.table import TableAllowance

__all__ = [
    "ACC_R",
    "ACC_REQ",
    "ACC_W",
    "COLUMNS",
    "INDEX",
    "REFUSED",
    "THR_INDEX",
    "THR_MAX",
    "THR_QUOTA",
    "THR_R",
    "THR_REQ",
    "THR_TABLE",
    "THR_W",
    "KeySpace",
    "Split",
]

# The columns of KeySpace.totals (one row a second): units accepted and throttled (writes, reads),
# requests accepted and throttled, and of those throttled, the ones the table-level allowance, the
# per-table quota and another item of the request (an index's back pressure, a transaction's other
# item) refused (the rest: partitions' own limits); then writes refused for good (an item
# collection at its size limit); then those an on-demand maximum throughput refused.
ACC_W, THR_W, ACC_R, THR_R, ACC_REQ, THR_REQ, THR_TABLE, THR_QUOTA, THR_INDEX, REFUSED, THR_MAX = range(11)
COLUMNS = 11
INDEX = "index"  # the cause of a request throttled because another of its items had no room
CAUSE_COLUMN = {TABLE: THR_TABLE, QUOTA: THR_QUOTA, INDEX: THR_INDEX, MAXIMUM: THR_MAX}


@dataclass(frozen=True, slots=True)
class Split:
    second: int
    pid: int  # the partition that split (it keeps the left half)
    child: int  # the new partition (the right half)
    reason: str  # "heat", "size" or "throughput"


class KeySpace:
    """The partitions of one table or index, created as a new table with `capacity` would have them.

    `lsi`: the table has a local secondary index (item collections stay whole, at most 10 GB);
    `index`: this key space is a global secondary index (its throttles hold back its table's writes);
    `secondary`: its requests are part of another space's (an index's writes, a transaction's other
    items), so a workload's requests are counted on the others.
    """

    def __init__(
        self,
        name: str,
        capacity: Capacity,
        limits: Limits,
        seed: int = 0,
        choices: Choices | None = None,
        lsi: bool = False,
        index: bool = False,
    ) -> None:
        self.name, self.capacity, self.limits, self.lsi, self.index = name, capacity, limits, lsi, index
        self.secondary = index  # its requests are counted with another space's (an index's, a transaction's)
        self.choices = choices or Choices()
        self.rng = random.Random(f"{seed}:{name}")
        self.read_cost = limits.read_cost
        self.table = TableAllowance(capacity, limits, self.choices)
        self.window = max(1, round(limits.window_seconds))
        self.partitions: list[Partition] = []
        self.lows: list[Position] = []
        self.cache: dict[int, Partition] = {}  # key hash -> partition, for collections not split
        self.splits: list[Split] = []
        self.totals: dict[int, tuple[float, ...]] = {}  # second -> the COLUMNS above
        self.current = [0.0] * COLUMNS  # this second's row, filed by close_second
        self.collections: defaultdict[int, float] = defaultdict(float)  # lsi: bytes per partition key
        self.refused_keys: defaultdict[int, int] = defaultdict(int)  # lsi: writes refused per key
        self._next_pid = 0
        count = self._counted = capacity.partitions(limits)
        for i in range(count):
            self.partitions.append(self._partition(((i * HASH_SPACE) // count, b""), 0.0, -1))
            self.lows.append(self.partitions[-1].low)

    def _partition(self, low: Position, born: float, parent: int) -> Partition:
        self._next_pid += 1
        allowance = self.capacity.partition_allowance(self.limits, self.choices)
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

    def throttled(self, part: Partition, write: float, read: float, count: int, cause: str) -> None:
        """File `count` throttled requests; `cause` is the rule that refused them ("" for the partition)."""
        part.thr_w += write * count
        part.thr_r += read * count
        part.thr_req += count
        row = self.current
        row[THR_REQ] += count
        if cause:
            row[CAUSE_COLUMN[cause]] += count
        else:
            part.thr_own += count

    def collection_room(self, key_hash: int, stored: float, count: int) -> int:
        """lsi: how many of `count` writes of `stored` bytes the item collection still takes."""
        room = self.limits.item_collection_bytes - self.collections[key_hash]
        return count if stored * count <= room else max(0, int(room // stored))

    def close_second(self, second: int, now: float) -> None:
        """File every partition's accounts, then split what must split."""
        limits, row = self.limits, self.current
        used_total, near_units = 0.0, limits.heat_utilization * limits.partition_write_units
        for part in list(self.partitions):
            for column, units in (
                (ACC_W, part.acc_w),
                (THR_W, part.thr_w),
                (ACC_R, part.acc_r),
                (THR_R, part.thr_r),
            ):
                row[column] += units
            used, own = part.close_second(second, self.read_cost, near_units)
            used_total += used
            part.streak = part.streak + 1 if used >= near_units or own else 0
            if part.streak >= self.choices.split_delay:
                self._split(part, heat_split_point(part, limits, self.lsi), second, now, "heat")
            if part.stored > limits.partition_bytes:
                self._split(part, size_split_point(part, self.lsi), second, now, "size")
        if any(row):
            self.totals[second] = tuple(row)
            self.current = [0.0] * COLUMNS
        wanted = self.table.follow_peak(second, used_total)
        if wanted:
            self._add_partitions(wanted, second, now)
        if len(self.partitions) != self._counted:
            self._counted = len(self.partitions)
            self.table.follow_partitions(self._counted)
        if (second + 1) % self.window == 0:
            for part in self.partitions:
                part.allowance.renew()
            self.table.renew()

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

    def _add_partitions(self, wanted: int, second: int, now: float) -> None:
        """Split the busiest partitions in the middle of their hash range until there are `wanted`."""
        while len(self.partitions) < wanted:
            busiest = max(self.partitions, key=lambda p: (p.used, -p.pid))
            at = middle_of(busiest.low, self.high_of(busiest))
            if at is None:
                return
            self._split(busiest, at, second, now, "throughput")
