"""How CloudWatch would have shown a simulated run: one point a minute, the minute's sum over 60.

Seed 003 read its figures off such graphs, so comparing the model with the seed means measuring
the model the same way: `minute_points` turns a per-second series into CloudWatch's one-minute
points (`offset` seconds of the first minute passed before the load began), and `reading` is the
figure a person reads off them: the mean of the minutes the run covered completely, or, for a run
shorter than that, its largest point (seed 003's fourth load: "aggregated into one data point").
When a run's rate is not steady the reading depends on where the minutes fell, which a seed does
not say: `expected_reading` averages the reading over every possible start second.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["MinutePoint", "expected_reading", "minute_points", "reading"]

MINUTE = 60


@dataclass(frozen=True, slots=True)
class MinutePoint:
    start: int  # seconds from the load's start (negative: the minute began before it)
    value: float  # the minute's sum / 60, as CloudWatch graphs a per-second rate
    full: bool  # the load ran for the whole minute

    def __str__(self) -> str:
        return f"{self.value:,.0f}{'' if self.full else '*'}"


def minute_points(per_second: Sequence[float], offset: int = 0) -> list[MinutePoint]:
    """One point per CloudWatch minute of a run that started `offset` seconds into a minute.

    >>> [str(p) for p in minute_points([100.0] * 90, offset=30)]
    ['50*', '100']
    >>> [str(p) for p in minute_points([100.0] * 140, offset=30)]
    ['50*', '100', '83*']
    """
    if not 0 <= offset < MINUTE:
        raise ValueError(f"offset {offset} must be within a minute (0-59 s)")
    padded = [0.0] * offset + list(per_second)
    points = []
    for start in range(0, len(padded), MINUTE):
        values = padded[start : start + MINUTE]
        full = start >= offset and start + MINUTE <= len(padded)
        points.append(MinutePoint(start - offset, sum(values) / MINUTE, full))
    return points


def reading(points: Sequence[MinutePoint]) -> float:
    """The figure read off the graph: the mean of full minutes, else the largest point.

    >>> reading(minute_points([100.0] * 140, offset=30)), reading(minute_points([6000.0] * 50))
    (100.0, 5000.0)
    """
    full = [point.value for point in points if point.full]
    if full:
        return statistics.fmean(full)
    return max((point.value for point in points), default=0.0)


def expected_reading(per_second: Sequence[float]) -> float:
    """The reading averaged over the 60 seconds of a minute the run may have started at.

    >>> expected_reading([100.0] * 150)
    100.0
    """
    return statistics.fmean(reading(minute_points(per_second, offset)) for offset in range(MINUTE))
