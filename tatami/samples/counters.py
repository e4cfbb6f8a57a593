"""Sample data of the counters service: the seed's election votes, candidates A and B.

Seed 004 shards a `votes` counter sized for 100K WCU of 1 KB items: 100 shards, 150 with the
margin it recommends. The sample creates both candidates' counters that way and casts votes
through the API (so the roll-up picks them up from the stream, as it would in AWS).
"""

from __future__ import annotations

import itertools
import random
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import requests

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress

VOTES = {"votes-A": 170, "votes-B": 130}
SIZING = {"target_wcu": 100_000, "safety_factor": 1.5}  # seed 004's example: 100 shards, x 1.5
EXAMPLES = ("/counters/votes-A", "/counters/votes-B?consistent=true", "/counters/votes-A?source=rollup")


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    """Create the candidates' counters and cast the votes; counters that already exist are kept.

    For example (not run as a doctest)::

        load(cloud, lambda done, total: None)
        # -> 'votes-A 170, votes-B 130 (150 shards each: 100K WCU x 1.5, seed 004)'
    """
    api, created = cloud.api_url, []
    for name in VOTES:
        response = requests.put(f"{api}/counters/{name}", json=SIZING, timeout=30)
        response.raise_for_status()
        if response.json()["outcome"] == "created":
            created.append(name)
    if not created:
        return "votes-A and votes-B already exist (kept as they are)"
    ballots = [name for name in created for _ in range(VOTES[name])]
    random.shuffle(ballots)  # interleaved, like an election night

    completed = itertools.count(1)  # next() is atomic: the threads share it

    def cast(name: str) -> None:
        response = requests.post(f"{api}/counters/{name}/increments", json={"by": 1}, timeout=30)
        response.raise_for_status()
        progress(next(completed), len(ballots))

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(cast, ballots))
    return (
        ", ".join(f"{name} {VOTES[name]}" for name in created)
        + " (150 shards each: 100K WCU x 1.5, seed 004)"
    )
