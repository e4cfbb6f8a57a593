"""What uniform hashing promises: the throughput keys of equal rates get from a table's partitions.

A partition key lands on a partition by its hash, which AWS does not publish; over random
placements, S keys of R/S requests a second each on P partitions of C units a second serve
E[min(T, sum over partitions of min(C, keys there x R/S))], T being the table's own limit. The
verdict uses it to price the fixes for keys that collide (more shards, more partitions).
"""

from __future__ import annotations

import random
from collections import Counter

__all__ = ["expected_rate"]

TRIALS = 400


def expected_rate(
    keys: int, rate: float, partitions: int, capacity: float, table: float, seed: int = 0
) -> float:
    """The mean rate served to `keys` equal keys sharing `rate` on `partitions` random-hashed partitions.

    >>> round(expected_rate(1, 3000, 4, 1000, 4000))
    1000
    >>> expected_rate(2, 2000, 4, 1000, 4000)  # both shards share a partition a quarter of the time: 1,750
    1755.0
    """
    rng, per_key, total = random.Random(seed), rate / keys, 0.0
    for _ in range(TRIALS):
        counts = Counter(rng.randrange(partitions) for _ in range(keys))
        total += min(table, sum(min(capacity, count * per_key) for count in counts.values()))
    return total / TRIALS
