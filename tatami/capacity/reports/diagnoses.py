"""Why a run throttled and what to change: the verdict as data (`Verdict`), and its one line of text.

Each throttled request has a cause the model knows (`model.space`'s columns): a partition's own
limit, the table's throughput, the per-table quota, an index's back pressure, or (not a throttle)
an item collection at its size limit. Partition-level throttling is then told apart by whom the
partition served in the seconds it throttled (`partition.Top`), each with the fix AWS's guidance
gives (bp-partition-key-design.html, TroubleshootingThrottlingOnDemand.html):

- hot item / hot key: one item or one partition key takes the partition, second after second;
- rolling hot partition: one key takes it in each second, but a different key as the run goes on
  (a load in key order);
- collision: a few keys, each under the limit alone, share a partition by where they hashed;
- busy partition: many keys, none dominant, on too few partitions.

With no throttling, a partition that ran near its limit for one item or key is still named: it
throttles past that, and an item never splits. `keys`/`keys_hot` are the keys each names.
"""

from __future__ import annotations

import dataclasses

from tatami.capacity.model.space import (
    ACC_R,
    ACC_REQ,
    ACC_W,
    REFUSED,
    THR_INDEX,
    THR_QUOTA,
    THR_R,
    THR_REQ,
    THR_TABLE,
    THR_W,
)
from tatami.capacity.reports.causes import partition_diagnoses, unthrottled_warnings
from tatami.capacity.reports.report import Report, SpaceFacts
from tatami.capacity.reports.verdict import Diagnosis, Verdict, percent

__all__ = ["diagnose"]


def diagnose(report: Report) -> Verdict:
    """The verdict of a finished run."""
    found: list[Diagnosis] = []
    for facts in report.spaces.values():
        found += _space_diagnoses(report, facts)
    table = report.table_totals()
    throttled = any(report.totals(name)[THR_REQ] or report.totals(name)[REFUSED] for name in report.spaces)
    if not throttled:
        found = [
            w for facts in report.spaces.values() for w in unthrottled_warnings(facts, _reads(report, facts))
        ]
    found.sort(key=lambda diagnosis: -diagnosis.share)
    return Verdict(
        throttled,
        tuple(found),
        table[ACC_REQ],
        table[THR_REQ],
        report.duration or float(report.seconds),
        report.stats.errors,
        report.scale,
    )


def _space_diagnoses(report: Report, facts: SpaceFacts) -> list[Diagnosis]:
    totals = report.totals(facts.name)
    throttled, reads = totals[THR_REQ] or 1.0, _reads(report, facts)
    found = []
    if totals[REFUSED]:
        found.append(_collection(facts, totals[REFUSED]))
    if totals[THR_QUOTA]:
        found.append(_quota(facts, totals[THR_QUOTA] / throttled, reads))
    if totals[THR_TABLE]:
        found.append(_table_limit(report, facts, totals[THR_TABLE] / throttled, reads))
    own = totals[THR_REQ] - totals[THR_TABLE] - totals[THR_QUOTA] - totals[THR_INDEX]
    if own > 0:
        for diagnosis in partition_diagnoses(facts, own / throttled, reads, report.sharding):
            found = _merged(found, diagnosis)
    if facts.index:
        found = [diagnosis.as_index(facts.name) for diagnosis in found]
    return found


def _merged(found: list[Diagnosis], new: Diagnosis) -> list[Diagnosis]:
    """`found` with `new`, joined to a diagnosis of the same kind (the table's limit, seen twice)."""
    same = next((diagnosis for diagnosis in found if diagnosis.kind == new.kind), None)
    if same is None:
        return [*found, new]
    joined = dataclasses.replace(
        same, share=same.share + new.share, finding=f"{same.finding}, and {new.finding}"
    )
    return [joined if diagnosis is same else diagnosis for diagnosis in found]


def _reads(report: Report, facts: SpaceFacts) -> bool:
    totals = report.totals(facts.name)
    return totals[ACC_R] + totals[THR_R] > totals[ACC_W] + totals[THR_W]


def _collection(facts: SpaceFacts, refused: float) -> Diagnosis:
    keys = tuple(sorted(facts.refused, key=lambda key: -facts.refused[key]))
    return Diagnosis(
        "item collection full",
        facts.name,
        1.0,
        keys,
        f"item collection {', '.join(keys[:3])} reached its 10 GB limit: {refused:,.0f} writes refused "
        "(ItemCollectionSizeLimitExceededException: with a local secondary index a collection stays on "
        "one partition)",
        "spread the partition key (add a suffix), or index with a global secondary index instead",
    )


def _quota(facts: SpaceFacts, share: float, reads: bool) -> Diagnosis:
    kind = "read" if reads else "write"
    return Diagnosis(
        "quota",
        facts.name,
        share,
        (),
        f"the per-table quota ({facts.quota:,.0f} {kind} units a second) refused {percent(share)} "
        "of the throttled requests",
        f"request a quota increase (Service Quotas, Amazon DynamoDB: 'Table-level {kind} throughput limit'); "
        "warm throughput or provisioned units above the quota do not help",
    )


def _table_limit(report: Report, facts: SpaceFacts, share: float, reads: bool) -> Diagnosis:
    units = "RCU" if reads else "WCU"
    offered = max(
        (row[ACC_W] + row[THR_W] + row[ACC_R] + row[THR_R] for row in report.series[facts.name]), default=0.0
    )
    finding = f"the table-level limit ({facts.capacity}) refused {percent(share)} of the throttled requests"
    if facts.provisioned:
        fix = (
            f"raise {units} to the load's rate (it offered up to {offered:,.0f} units a second, retries too)"
        )
    else:
        fix = (
            f"warm the table (warm throughput) to the load's rate (it offered up to {offered:,.0f} units "
            f"a second, retries too; its allowance reached {facts.write_rate:,.0f}), or ramp up over "
            "30 minutes: on-demand doubles its previous peak"
        )
    return Diagnosis("table limit", facts.name, share, (), finding, fix)
