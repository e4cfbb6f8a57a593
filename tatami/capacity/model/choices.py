"""What AWS's documents leave open, as explicit choices: one run fixes them, a range runs several.

The constants of `limits` are AWS's published values. Three behaviours are documented only in
words, and each reading changes the figures, so the model names them instead of picking one:

- **accounting**: a partition's 1,000 write units "per second" read as each calendar second
  (Part 3 of seed 003's series: throttled when a partition "has reached its limits during that
  second") or as a token bucket one second deep (the DynamoDB paper, section 4: partitions admit
  requests through token buckets), which lets a partition that was idle take two seconds' worth
  in one calendar second;
- **growth** of an on-demand table: the documented worst case (a new peak is served once it is 30
  minutes old: "throttling can occur if you exceed double your previous peak within 30 minutes")
  or the optimistic bound (twice the busiest minute so far, at once: on-demand "instantly
  accommodates ... any previously reached traffic level" and "up to double the previous peak");
- **split delay**: how long a partition runs hot before it splits (the paper: "partition splits
  usually complete in the order of minutes"; no number is published): 1 to 10 minutes.

`CORNERS` are the two ends and the middle of those readings; `tatami.capacity.reports.ranges` runs
a workload at each corner and several hash seeds and reports every figure as a range.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "CHOICE_SOURCES",
    "CORNERS",
    "MIDDLE",
    "OPTIMISTIC",
    "PER_SECOND",
    "PESSIMISTIC",
    "TOKEN_BUCKET",
    "WORST_CASE",
    "Choices",
]

PER_SECOND, TOKEN_BUCKET = "per second", "token bucket"
WORST_CASE, OPTIMISTIC = "worst case", "optimistic"
ACCOUNTINGS, GROWTHS = (PER_SECOND, TOKEN_BUCKET), (WORST_CASE, OPTIMISTIC)

PART_3 = (
    "https://aws.amazon.com/blogs/database/part-3-scaling-dynamodb-how-partitions-hot-keys-"
    "and-split-for-heat-impact-performance/"
)
PAPER = "https://www.usenix.org/conference/atc22/presentation/elhemali (section 4)"
ON_DEMAND = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html"
THROTTLING = (
    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TroubleshootingThrottlingOnDemand.html"
)

# choice -> ((source, what it says) for each reading)
CHOICE_SOURCES: dict[str, tuple[tuple[str, str], ...]] = {
    "accounting": (
        (PART_3, f"{PER_SECOND}: throttled when a partition 'has reached its limits during that second'"),
        (PAPER, f"{TOKEN_BUCKET}: partitions admit requests through token buckets (one second deep here)"),
    ),
    "growth": (
        (THROTTLING, f"{WORST_CASE}: 'if you exceed double your previous traffic's peak within 30 minutes'"),
        (ON_DEMAND, f"{OPTIMISTIC}: 'instantly accommodates ... any previously reached traffic level'"),
    ),
    "split_delay": ((PAPER, "'partition splits usually complete in the order of minutes': 1 to 10"),),
}


@dataclass(frozen=True, slots=True)
class Choices:
    """One reading of what the documents leave open.

    >>> Choices().describe()
    'per second, on-demand growth worst case, splits after 300 s'
    """

    accounting: str = PER_SECOND
    growth: str = WORST_CASE
    split_delay: float = 300.0  # seconds near the limit before a partition splits for heat

    def __post_init__(self) -> None:
        if self.accounting not in ACCOUNTINGS:
            raise ValueError(f"accounting {self.accounting!r} must be one of {', '.join(ACCOUNTINGS)}")
        if self.growth not in GROWTHS:
            raise ValueError(f"growth {self.growth!r} must be one of {', '.join(GROWTHS)}")
        if self.split_delay <= 0:
            raise ValueError(f"split delay {self.split_delay} must be positive")

    def describe(self) -> str:
        return f"{self.accounting}, on-demand growth {self.growth}, splits after {self.split_delay:g} s"


PESSIMISTIC = Choices(PER_SECOND, WORST_CASE, 600.0)
MIDDLE = Choices(PER_SECOND, WORST_CASE, 300.0)
OPTIMISTIC_END = Choices(TOKEN_BUCKET, OPTIMISTIC, 60.0)
CORNERS = {"pessimistic": PESSIMISTIC, "middle": MIDDLE, "optimistic": OPTIMISTIC_END}
