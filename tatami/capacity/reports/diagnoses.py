"""Why a run throttled and what to change: the verdict as data (`Verdict`), and its one line of text.

Each throttled request has a cause the model knows (`model.space`'s columns): a partition's own
limit, the table's throughput, the per-table quota, an on-demand maximum throughput, another item
of the request (an index's back pressure, a transaction's other item), or (not a throttle) an
item collection at its size limit. Partition-level throttling is then told apart by the load's
shape and by whom the partition served in the seconds it throttled (`causes`), each with the fix
AWS's guidance gives (bp-partition-key-design.html, TroubleshootingThrottlingOnDemand.html) and the
number to set (`fixes`):

- rolling hot partition: an ordered load (shuffle it);
- hot item / hot key: one item or one partition key takes the partition, second after second;
- collision: a few keys, each under the limit alone, share a partition by where they hashed;
- busy partition: many keys, none dominant, on too few partitions.

An on-demand table's own limit is judged against AWS's growth rule (`growth`): a load that broke
it is told how to ramp by the rule or what to warm to; one that kept it is not told to ramp.
With no throttling, a partition that ran near its limit for one item or key is still named: it
throttles past that, and an item never splits.
"""

from __future__ import annotations

import dataclasses

from tatami.capacity.model.capacity import ON_DEMAND
from tatami.capacity.model.space import (
    ACC_R,
    ACC_REQ,
    ACC_W,
    REFUSED,
    THR_INDEX,
    THR_MAX,
    THR_QUOTA,
    THR_R,
    THR_REQ,
    THR_TABLE,
    THR_W,
)
from tatami.capacity.reports.causes import partition_diagnoses
from tatami.capacity.reports.facts import SpaceFacts
from tatami.capacity.reports.fixes import capacity_fixes, growth_judgement, peak
from tatami.capacity.reports.hot import unthrottled_warnings
from tatami.capacity.reports.report import Report
from tatami.capacity.reports.seen import seen
from tatami.capacity.reports.verdict import Diagnosis, Fix, Verdict, percent

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
            w
            for facts in report.spaces.values()
            for w in unthrottled_warnings(report, facts, _reads(report, facts))
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
        seen(report),
    )


def _space_diagnoses(report: Report, facts: SpaceFacts) -> list[Diagnosis]:
    totals = report.totals(facts.name)
    throttled, reads = totals[THR_REQ] or 1.0, _reads(report, facts)
    found = []
    if totals[REFUSED]:
        found.append(_collection(facts, totals[REFUSED]))
    if totals[THR_QUOTA]:
        found.append(_quota(report, facts, totals[THR_QUOTA] / throttled, reads))
    if totals[THR_MAX]:
        found.append(_maximum(report, facts, totals[THR_MAX] / throttled))
    if totals[THR_TABLE]:
        found.append(_table_limit(report, facts, totals[THR_TABLE] / throttled, reads))
    own = totals[THR_REQ] - totals[THR_TABLE] - totals[THR_QUOTA] - totals[THR_MAX] - totals[THR_INDEX]
    if own > 0:
        for diagnosis in partition_diagnoses(report, facts, own / throttled, reads):
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
        (
            Fix(
                "spread the partition key (add a suffix), or index with a global secondary index instead",
                "key",
            ),
        ),
    )


def _quota(report: Report, facts: SpaceFacts, share: float, reads: bool) -> Diagnosis:
    kind = "read" if reads else "write"
    asked = peak(report, facts)[1 if reads else 0]
    fix = Fix(
        f"request a quota increase to {asked:,.0f} (Service Quotas, Amazon DynamoDB: 'Table-level {kind} "
        "throughput limit'; the load's busiest second); warm throughput or provisioned units above the quota "
        "do not help",
        "quota",
        asked,
    )
    finding = (
        f"the per-table quota ({facts.quota:,.0f} {kind} units a second) refused {percent(share)} "
        "of the throttled requests"
    )
    return Diagnosis("quota", facts.name, share, (), finding, (fix,))


def _maximum(report: Report, facts: SpaceFacts, share: float) -> Diagnosis:
    write, read = peak(report, facts)
    finding = (
        f"the on-demand maximum throughput ({facts.capacity}) refused {percent(share)} of the throttled "
        "requests"
    )
    fix = Fix(
        f"raise the maximum throughput to the load's {write:,.0f} write / {read:,.0f} read units/s, or "
        "keep it as the cap on the bill (requests past it throttle)",
        "maximum throughput",
        write,
    )
    return Diagnosis("maximum throughput", facts.name, share, (), finding, (fix,))


def _table_limit(report: Report, facts: SpaceFacts, share: float, reads: bool) -> Diagnosis:
    finding = f"the table-level limit ({facts.capacity}) refused {percent(share)} of the throttled requests"
    fixes = capacity_fixes(report, facts, reads)
    if facts.setting.mode == ON_DEMAND:
        clause, ramp = growth_judgement(report, facts)
        finding, fixes = f"{finding}{clause}", (*fixes, *ramp)
    return Diagnosis("table limit", facts.name, share, (), finding, fixes)
