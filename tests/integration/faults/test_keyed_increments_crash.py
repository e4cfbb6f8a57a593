"""Keyed increments with the writer SIGKILLed at each step (conftest's CRASHES), then retried with the
same Idempotency-Key, under the faulty cloud's throttling too.

A keyed increment reads the counter's configuration (GetItem, once per execution environment) and
commits the shard's ADD with the key's record (TransactWriteItems): the crashes land before the
read, before the commit, after it, and after the commit and again after the retry that replayed it.
Invariant: for every accepted key, the counter and its roll-up moved exactly once; a retry after a
crash past the commit answers as a replay of it.
"""

from __future__ import annotations

import uuid
from functools import partial

from tatami.local.cloud import LocalCloud
from tests.integration.counters.cloud_helpers import create, rollup_settled, value
from tests.integration.faults.conftest import CRASHES, injected, send_until_accepted
from tests.support.waiting import eventually

BYS = (2, 5)  # one key per `by`: the first meets the crash, the second shows its replacement is sound


def test_a_keyed_increment_killed_at_any_step_counts_once(faulty_cloud: LocalCloud) -> None:
    markers = sorted({crash.marker for crash in CRASHES})
    names = {marker: create(faulty_cloud, marker) for marker in markers}
    answers: dict[str, list[dict[str, object]]] = {}
    for marker, name in names.items():  # one step at a time: each kill belongs to its step
        answers[marker] = [
            send_until_accepted(faulty_cloud, name, by, f"k-{uuid.uuid4().hex[:10]}")[1] for by in BYS
        ]
        assert value(faulty_cloud, name, consistent="true") == sum(BYS), marker
    for marker, name in names.items():
        settled = eventually(partial(rollup_settled, faulty_cloud, name, sum(BYS)), timeout=60)
        assert settled, (marker, value(faulty_cloud, name, source="rollup"))
    log = faulty_cloud.log.snapshot()
    fired = [line for line in log if "tatami faults: killed" in line and "crash-" in line]
    assert len(fired) == len(CRASHES), fired  # every step was crashed, once
    # Killed after its commit, the first key's retry found the record: the same answer, replayed.
    for marker in ("crash-after-commit", "crash-twice"):
        assert answers[marker][0]["replayed"] is True, answers[marker]
    for marker in ("crash-before-config", "crash-before-commit"):
        assert answers[marker][0]["replayed"] is False, answers[marker]
    assert all(answer["replayed"] is False for found in answers.values() for answer in found[1:])
    print(f"kills {len(fired)}; throttling faults injected {injected(faulty_cloud)}")
