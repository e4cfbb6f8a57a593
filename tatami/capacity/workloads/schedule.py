"""Rates that change over time: a steady rate, or steps (`4000,8000@30m,16000@60m`).

A `Schedule` is a list of steps, each a rate from a start time on; what a workload offers at a
second is the rate of the last step begun. The CLI's `--rate` takes the text form: rates separated
by commas, each after the first with `@` and when it starts (seconds, or with `s`, `m` or `h`).

>>> ramp = Schedule.parse("4000,8000@30m,16000@1h")
>>> ramp.rate_at(0), ramp.rate_at(1800), ramp.peak, ramp.describe()
(4000.0, 8000.0, 16000.0, '4,000/s, 8,000/s from 30 min, 16,000/s from 60 min')
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from dataclasses import dataclass

__all__ = ["Schedule", "ScheduleError"]

_STEP = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*(?:@\s*([0-9]*\.?[0-9]+)\s*([smh]?)\s*)?$")
_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0}


class ScheduleError(ValueError):
    """A rate schedule that cannot be read; the message says which step and how to write it."""


@dataclass(frozen=True, slots=True)
class Schedule:
    """Steps of (start second, requests a second), the first at 0, starts increasing."""

    steps: tuple[tuple[float, float], ...]

    def __post_init__(self) -> None:
        if not self.steps or self.steps[0][0] != 0:
            raise ScheduleError("a schedule starts with a rate at 0 s")
        starts = [start for start, _ in self.steps]
        if starts != sorted(set(starts)):
            raise ScheduleError(f"step starts {starts} must increase")
        if any(rate < 0 for _, rate in self.steps):
            raise ScheduleError("rates must not be negative")

    @classmethod
    def steady(cls, rate: float) -> Schedule:
        return cls(((0.0, float(rate)),))

    @classmethod
    def parse(cls, text: str) -> Schedule:
        """`RATE[,RATE@START...]`; START in seconds or with s, m or h (`8000@30m`)."""
        steps = []
        for number, part in enumerate(text.split(","), start=1):
            match = _STEP.match(part)
            if not match or (number == 1) is not (match.group(2) is None):
                form = "RATE" if number == 1 else "RATE@START (START like 90, 30m or 1h)"
                raise ScheduleError(f"step {number} {part.strip()!r}: expected {form}")
            rate, start, unit = match.groups()
            steps.append((float(start or 0) * _UNITS[unit or ""], float(rate)))
        return cls(tuple(steps))

    def scaled(self, factor: float) -> Schedule:
        """Every step's rate times `factor` (a share of the traffic)."""
        return Schedule(tuple((start, rate * factor) for start, rate in self.steps))

    def rate_at(self, second: float) -> float:
        index = bisect_right([start for start, _ in self.steps], second) - 1
        return self.steps[max(index, 0)][1]

    @property
    def peak(self) -> float:
        return max(rate for _, rate in self.steps)

    @property
    def steady_rate(self) -> float | None:
        """The rate when it never changes, else None."""
        return self.steps[0][1] if len(self.steps) == 1 else None

    def per_second(self, seconds: int) -> list[float]:
        """The rate of each whole second of a run `seconds` long (a step mid-second counts pro rata)."""
        return [self.mean(second, second + 1.0) for second in range(seconds)]

    def mean(self, start: float, end: float) -> float:
        """The mean rate from `start` to `end` seconds."""
        if end <= start:
            return 0.0
        edges = [start, *(at for at, _ in self.steps if start < at < end), end]
        return sum(self.rate_at(a) * (b - a) for a, b in itertools.pairwise(edges)) / (end - start)

    def describe(self) -> str:
        first, *later = self.steps
        parts = [f"{first[1]:,.0f}/s"] + [f"{rate:,.0f}/s from {_duration(at)}" for at, rate in later]
        return ", ".join(parts)


def _duration(seconds: float) -> str:
    return f"{seconds / 60:g} min" if seconds >= 60 else f"{seconds:g} s"
