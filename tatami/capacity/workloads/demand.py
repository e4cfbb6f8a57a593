"""What a workload asks of each table and index, second by second, without its retries.

A fix's number is what the application needs, not what the SDK sent while throttled: a 4,000
writes/s load needs 4,000 WCU, however many retries its throttles caused. `Demand` keeps, per key
space, the write and read units the workload's requests offer each second on their first attempt:
open-loop streams at their schedules, recorded calls at their times, and a bulk loader at its
pace (its threads' calls back to back: what it would send if nothing throttled).

>>> demand = Demand()
>>> demand.add("table", [100.0, 300.0], write=1.0, read=0.0)
>>> demand.peak("table"), demand.mean("table"), demand.seconds
((300.0, 0.0), (200.0, 0.0), 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Demand"]


@dataclass
class Demand:
    """Write and read units offered per second, per key space (first attempts only)."""

    write: dict[str, list[float]] = field(default_factory=dict)
    read: dict[str, list[float]] = field(default_factory=dict)

    def add(self, space: str, requests: Sequence[float], write: float, read: float) -> None:
        """`requests[s]` requests in second s, each of `write` and `read` units on `space`."""
        for column, units in ((self.write, write), (self.read, read)):
            series = column.setdefault(space, [])
            series.extend([0.0] * (len(requests) - len(series)))
            for second, count in enumerate(requests):
                series[second] += count * units

    def add_requests(self, requests: Iterable[Any], per_second: Sequence[float]) -> None:
        """Requests picked evenly from `requests` (engine tuples), `per_second[s]` of them in second s.

        Each request's units land on its key space, and its index writes or transaction items on theirs.
        """
        units: dict[str, list[float]] = {}
        chosen = 0
        for space, _, _, write, read, _, others in requests:
            chosen += 1
            for name, w, r in ((space.name, write, read), *((o[0].name, o[3], _read(o)) for o in others)):
                total = units.setdefault(name, [0.0, 0.0])
                total[0] += w
                total[1] += r
        for name, (write, read) in units.items():
            self.add(name, per_second, write / chosen, read / chosen)

    def add_timed(self, events: Iterable[tuple[float, Any, int]]) -> None:
        """Requests at their times (recorded calls): `count` copies of an engine tuple at `time` seconds.

        Each request's units land on its key space, and its index writes or transaction items on theirs.
        """
        for at, (space, _, _, write, read, _, others), count in events:
            for name, w, r in ((space.name, write, read), *((o[0].name, o[3], _read(o)) for o in others)):
                for column, units in ((self.write, w), (self.read, r)):
                    series = column.setdefault(name, [])
                    series.extend([0.0] * (int(at) + 1 - len(series)))
                    series[int(at)] += units * count

    def only(self, space: str) -> Demand:
        """The demand on one key space alone (a fix's cost, for the table or index it changes)."""
        return Demand({space: self.write.get(space, [])}, {space: self.read.get(space, [])})

    @property
    def seconds(self) -> int:
        return max((len(series) for series in (*self.write.values(), *self.read.values())), default=0)

    def spaces(self) -> list[str]:
        return list(dict.fromkeys([*self.write, *self.read]))

    def series(self, space: str) -> tuple[list[float], list[float]]:
        return self.write.get(space, []), self.read.get(space, [])

    def peak(self, space: str) -> tuple[float, float]:
        """The busiest second's write units and read units (each its own busiest second)."""
        write, read = self.series(space)
        return max(write, default=0.0), max(read, default=0.0)

    def mean(self, space: str) -> tuple[float, float]:
        """Mean write and read units a second over the seconds the workload offers anything."""
        write, read = self.series(space)
        seconds = max(len(write), len(read)) or 1
        return sum(write) / seconds, sum(read) / seconds

    def minute_peaks(self, space: str, read_cost: float) -> list[float]:
        """Each minute's mean units a second, reads at `read_cost` write units (on-demand's one allowance)."""
        write, read = self.series(space)
        seconds = max(len(write), len(read))
        total = [
            (write[s] if s < len(write) else 0.0) + read_cost * (read[s] if s < len(read) else 0.0)
            for s in range(seconds)
        ]
        return [sum(total[at : at + 60]) / len(total[at : at + 60]) for at in range(0, seconds, 60)]


def _read(other: tuple[Any, ...]) -> float:
    """The read units of an index write or a transaction's item (index writes carry none)."""
    return float(other[4]) if len(other) > 4 else 0.0
