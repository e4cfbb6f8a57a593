"""Summaries both search benchmarks print."""

from __future__ import annotations

import math


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value at or above ``share`` of them.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.95)
    4.0
    """
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]
