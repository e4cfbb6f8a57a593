"""Counters under injected throttling and server errors (the write function, the roll-up) and a roll-up
whose execution environments are SIGKILLed after every few calls, mid-batch.

Invariant: sum of the counter's shards == roll-up == sum of the accepted increments, each
Idempotency-Key counted once, however many times it was sent.
"""

from __future__ import annotations

import random
import uuid
from concurrent.futures import ThreadPoolExecutor

from tatami.local.cloud import LocalCloud
from tests.integration.counters.cloud_helpers import create, value
from tests.integration.faults.conftest import increment_until_accepted, injected
from tests.support.waiting import eventually

INCREMENTS, CLIENTS = 60, 4


def test_every_accepted_increment_counts_once_under_throttling_and_killed_rollups(
    faulty_cloud: LocalCloud,
) -> None:
    """Invariant: shards == roll-up == sum of accepted increments (each key once)."""
    name = create(faulty_cloud, "faulty")
    rng = random.Random(19)
    increments = {f"k-{uuid.uuid4().hex[:12]}": rng.randint(-3, 9) or 1 for _ in range(INCREMENTS)}
    resent = list(increments)[:10]  # a client that did not see the answer sends these again
    with ThreadPoolExecutor(CLIENTS) as pool:
        sends = list(
            pool.map(
                lambda key: increment_until_accepted(faulty_cloud, name, increments[key], key),
                [*increments, *resent],
            )
        )
    expected = sum(increments.values())
    assert value(faulty_cloud, name, consistent="true") == expected
    assert eventually(lambda: value(faulty_cloud, name, source="rollup") == expected, timeout=60), (
        value(faulty_cloud, name, source="rollup"),
        expected,
    )
    assert injected(faulty_cloud) > 0 and injected(faulty_cloud, "killed") > 0, "the faults happened"
    print(f"sends {sum(sends)} for {len(sends)} increments; faults {injected(faulty_cloud)}")
