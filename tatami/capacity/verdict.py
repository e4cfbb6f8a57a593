"""The one-line verdict of a simulated run ("throttles: key 192 takes 41% of writes on 1 partition")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tatami.capacity.space import ACC_R, ACC_REQ, ACC_W, THR_R, THR_REQ, THR_TABLE, THR_W

if TYPE_CHECKING:
    from tatami.capacity.report import PartitionLine, Report

__all__ = ["verdict"]

DOMINANT = 0.5  # a key with at least this share of its partition's traffic is named as the cause
SPREAD = 0.1  # when no key has this share, the partition is simply too busy (not a hot key)


def verdict(report: Report, scale: float | None = None) -> str:
    """Whether the run throttled, where, because of which key, and at what pace it went.

    >>> verdict(report)  # doctest: +SKIP
    'throttles: key 0 takes 100% of writes on 1 partition (table/P2 throttled for 360 s, ...); ...'
    """
    prefix = f"at {scale:g}x this traffic, " if scale else ""
    totals = report.totals()
    seconds = report.duration or float(report.seconds)
    pace = (
        f"{totals[ACC_REQ]:,.0f} requests in {seconds:,.1f} s ({totals[ACC_REQ] / max(seconds, 0.05):,.0f}/s)"
    )
    kind = "writes" if totals[ACC_W] + totals[THR_W] >= totals[ACC_R] + totals[THR_R] else "reads"
    throttled = [line for line in report.partitions if line.throttled]
    if not throttled:
        key, share = report.hottest
        peak = max((line.peak for line in report.partitions), default=0.0)
        return (
            f"{prefix}no throttling: {pace}; the busiest partition used {peak:.0%} of its allowance; "
            f"hottest key {key} takes {share:.0%} of {kind}"
        )
    worst = max(throttled, key=lambda line: (line.throttled_seconds, line.throttled))
    offered = totals[ACC_REQ] + totals[THR_REQ]
    causes = [_culprit(worst, kind)]
    if totals[THR_TABLE] >= totals[THR_REQ] / 2:
        causes.insert(0, f"the table-level limit ({report.capacity})")
    share = totals[THR_REQ] / offered if offered else 0.0
    return f"{prefix}throttles: {'; '.join(causes)}; {share:.0%} of requests throttled; {pace}"


def _culprit(line: PartitionLine, kind: str) -> str:
    where = f"{line.name} throttled for {line.throttled_seconds:,} s"
    if line.keys <= 1 or line.top_share >= DOMINANT:
        return f"key {line.top_key} takes {line.top_table_share:.0%} of {kind} on 1 partition ({where})"
    if line.top_share < SPREAD:
        spread = f"{line.keys:,} keys, none above {SPREAD:.0%} of its {kind}"
        return f"{where}: {spread} (the table needs more partitions)"
    return f"{where}: {line.keys:,} keys, the hottest {line.top_key} with {line.top_share:.0%} of its {kind}"
