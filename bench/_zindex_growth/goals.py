"""The issue's goals, each against its figure (MET or MISS)."""

from __future__ import annotations

from typing import Any

HOUR = 3600.0
MACHINE_BYTES = 24e9  # the machine's 24 GB, in the units the bench prints memory in (1e9 bytes)


def goals(summaries: list[dict[str, Any]]) -> list[tuple[str, float, bool]]:
    """(goal, figure, met) for the sizes measured, smallest to largest."""
    first, last = summaries[0], summaries[-1]
    span = f"{first['size']:,} to {last['size']:,}"
    found: list[tuple[str, float, bool]] = []
    for tier in first["tiers"]:
        growth = (
            last["tiers"][tier]["rcu_per_result"]["median"] / first["tiers"][tier]["rcu_per_result"]["median"]
        )
        found.append(
            (
                f"boxes of {int(tier):,}: read units per result grow <= 1.25x from {span}",
                growth,
                growth <= 1.25,
            )
        )
    for tier in first["tiers"]:
        growth = last["tiers"][tier]["queries"]["median"] / first["tiers"][tier]["queries"]["median"]
        found.append(
            (f"boxes of {int(tier):,}: Queries per box grow <= 2x from {span}", growth, growth <= 2.0)
        )
    for s in summaries:
        amplification, size = s["amplification_large"], f"{s['size']:,}"
        plain = s["amplification_large_without_floor"]
        found.append(
            (
                f"{size}: amplification median <= 2.0 (boxes of 50+)",
                amplification["median"],
                amplification["median"] <= 2.0,
            )
        )
        found.append(
            (
                f"{size}: amplification p95 <= 12 (boxes of 50+)",
                amplification["p95"],
                amplification["p95"] <= 12,
            )
        )
        found.append((f"{size}:   ... boxes without a population floor", plain["p95"], plain["p95"] <= 12))
        ratio = s["world"]["read"] / max(s["world"]["results"], 1)
        found.append((f"{size}: world population_min=1000000 reads <= 1.2x its results", ratio, ratio <= 1.2))
        found.append(
            (
                f"{size}: chosen within 1.1x of the cheapest candidate on >= 95% of boxes",
                s["within"],
                s["within"] >= 0.95,
            )
        )
    planning = last["planning_ms"]["p95"]
    found.append(
        (
            f"{last['size']:,}: planning p95 per box < 50 ms (max {last['planning_ms']['max']:.0f})",
            planning,
            planning < 50,
        )
    )
    rss = max(s["peak_rss_bytes"] for s in summaries)
    found.append(("peak memory fits the 24 GB machine (GB)", rss / 1e9, rss <= MACHINE_BYTES))
    seconds = sum(sum(s["seconds"].values()) for s in summaries)
    found.append(("every size within an hour (minutes)", seconds / 60, seconds <= HOUR))
    return found
