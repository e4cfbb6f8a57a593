"""Did an on-demand load grow as AWS's rule allows? The rule as written, applied to what the load asked.

AWS: an on-demand table "instantly accommodates up to double the previous peak"; "throttling can
still occur if the throughput exceeds twice the previous peak within the same 30 minutes"
(pre-warming-on-demand-capacity-mode.html); a new table sustains 4,000 writes (or 12,000 reads) a
second, and a table's warm throughput is what it serves at once. So a minute of the load breaks the
rule when it asks more than twice the busiest minute that began at least 30 minutes before it
(and more than the table's warm throughput): the load's own peaks, not what a throttled table
served, so a shortfall never compounds into the next doubling.

`breach` finds the first such minute; `ramp` says how to get there by the rule: hold a level for
30 minutes, then double it.

>>> breach([4000.0] * 30 + [8000.0] * 30, warm=4000.0) is None  # doubles after 30 minutes: allowed
True
>>> breach([4000.0] * 20 + [8000.0] * 30, warm=4000.0)
Breach(minute=20, asked=8000.0, allowed=4000.0, peak_before=0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Breach", "breach", "ramp"]

RULE_MINUTES = 30
SLACK = 1.001  # a minute's mean a hair over twice the peak is rounding, not a breach


@dataclass(frozen=True)
class Breach:
    minute: int  # the first minute that asked more than the rule allows
    asked: float  # its mean units a second
    allowed: float  # what the rule allowed then: twice the peak 30 minutes before, or the warm throughput
    peak_before: float  # the busiest minute that began at least 30 minutes before it


def breach(
    minutes: list[float], warm: float, rule_minutes: int = RULE_MINUTES, factor: float = 2.0
) -> Breach | None:
    """The first minute of `minutes` (mean units a second) that grew faster than the rule allows."""
    peak_before = 0.0
    for minute, asked in enumerate(minutes):
        if minute >= rule_minutes:
            peak_before = max(peak_before, minutes[minute - rule_minutes])
        allowed = max(warm, factor * peak_before)
        if asked > allowed * SLACK:
            return Breach(minute, asked, allowed, peak_before)
    return None


def ramp(
    target: float, warm: float, rule_minutes: int = RULE_MINUTES, factor: float = 2.0
) -> list[tuple[int, float]]:
    """Steps (minute, units a second) that reach `target` by the rule from a table warm to `warm`.

    >>> ramp(16000.0, warm=4000.0)
    [(0, 4000.0), (30, 8000.0), (60, 16000.0)]
    """
    if target <= warm:
        return [(0, target)]
    doublings = math.ceil(math.log(target / warm, factor) - 1e-9)
    steps = [(rule_minutes * n, warm * factor**n) for n in range(doublings)]
    return [*steps, (rule_minutes * doublings, target)]
