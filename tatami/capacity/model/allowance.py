"""What may still be consumed: a partition's or a table's allowance, per calendar second or as a bucket.

`Allowance` counts each calendar second (with an optional reserve: provisioned burst capacity);
`Bucket` refills continuously and holds at most `depth` seconds. `model.choices.accounting` says
which one a run uses; the engine reads both through `available(now)` and charges `left`.
"""

from __future__ import annotations

__all__ = ["Allowance", "Bucket", "TableLimit"]


class Allowance:
    """What may still be consumed in the current accounting window (one calendar second).

    `limit` units a window; a `reserve` (burst capacity) saves what a window leaves unused, up to
    `reserve_cap`, and lends it when a window needs more than its limit. `renew` opens the next
    window.
    """

    __slots__ = ("left", "limit", "reserve", "reserve_cap", "start", "window")

    def __init__(
        self, limit: float, reserve_cap: float = 0.0, reserve: float = 0.0, window: float = 1.0
    ) -> None:
        self.limit, self.reserve_cap, self.window = limit, reserve_cap, window
        self.reserve = min(reserve, reserve_cap)
        self.left = self.start = limit + self.reserve

    def available(self, now: float) -> float:
        return self.left

    def renew(self) -> None:
        used = self.start - self.left
        self.reserve = min(self.reserve_cap, max(0.0, self.reserve + self.limit - used))
        self.left = self.start = self.limit + self.reserve

    def raise_to(self, per_second: float) -> None:
        """A higher limit, from the next window on (on-demand growth)."""
        self.limit = per_second * self.window


class Bucket(Allowance):
    """A token bucket: refills at `limit` units a second and holds at most `depth` seconds of it.

    >>> bucket = Bucket(1000.0, depth=1.0)
    >>> bucket.left -= 1000.0; round(bucket.available(0.25))
    250
    """

    __slots__ = ("at", "depth")

    def __init__(self, limit: float, depth: float = 1.0, level: float | None = None) -> None:
        super().__init__(limit)
        self.depth, self.at = depth, 0.0
        self.left = min(limit * depth, limit if level is None else level)

    def available(self, now: float) -> float:
        if now > self.at:
            self.left = min(self.limit * self.depth, self.left + (now - self.at) * self.limit)
            self.at = now
        return self.left

    def renew(self) -> None:
        """Nothing to do: a bucket refills continuously."""

    def raise_to(self, per_second: float) -> None:
        self.available(self.at)
        self.limit = per_second


class TableLimit:
    """One table-level allowance and what a write unit and a read unit cost of it.

    `kind` says which rule it enforces: "table" (provisioned or on-demand throughput) or "quota"
    (the per-table service quota).
    """

    __slots__ = ("allowance", "kind", "read_cost", "write_cost")

    def __init__(self, allowance: Allowance, write_cost: float, read_cost: float, kind: str) -> None:
        self.allowance, self.write_cost, self.read_cost, self.kind = allowance, write_cost, read_cost, kind
