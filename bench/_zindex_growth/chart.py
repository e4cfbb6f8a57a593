"""The curves as one PNG: six panels over the sizes (log scale), one line per tier where tiers differ."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display: a file
import matplotlib.pyplot as plt


def draw(summaries: list[dict[str, Any]], path: Path) -> None:
    sizes = [s["size"] for s in summaries]
    tiers = list(summaries[0]["tiers"])
    figure, axes = plt.subplots(2, 3, figsize=(15, 8.5))
    panels = [
        ("read units per result (median)", "rcu_per_result"),
        ("items read per result (median)", "amplification"),
        ("Queries per box (median)", "queries"),
    ]
    for ax, (title, key) in zip(axes[0], panels, strict=True):
        for tier in tiers:
            ax.plot(
                sizes,
                [s["tiers"][tier][key]["median"] for s in summaries],
                marker="o",
                label=f"{int(tier):,} places",
            )
        ax.set(title=title, xscale="log", yscale="log", xlabel="items")
        ax.legend(fontsize=8)
    ax = axes[1][0]
    for key, style in (("median", "-o"), ("p95", "--s"), ("max", ":^")):
        ax.plot(sizes, [s["planning_ms"][key] for s in summaries], style, label=key)
    ax.axhline(50, color="grey", linewidth=0.8)
    ax.set(title="planning time per box (ms)", xscale="log", xlabel="items")
    ax.legend(fontsize=8)
    ax = axes[1][1]
    ax.plot(sizes, [s["within"] for s in summaries], "-o", label="chosen within 1.1x of cheapest")
    ax.plot(
        sizes,
        [s["world"]["read"] / max(s["world"]["results"], 1) for s in summaries],
        "-s",
        label="world query: read / returned",
    )
    ax.set(title="optimizer and world query", xscale="log", xlabel="items", ylim=(0, 1.6))
    ax.legend(fontsize=8)
    ax = axes[1][2]
    ax.plot(
        sizes,
        [sum(s["statistics"]["bytes"].values()) / 1024 for s in summaries],
        "-o",
        label="statistics (KB)",
    )
    ax.plot(
        sizes,
        [s["statistics"]["refresh_read_units"] / 1000 for s in summaries],
        "-s",
        label="refresh (1,000 read units)",
    )
    ax.plot(
        sizes, [s["writes"]["moved"]["maintainer"] for s in summaries], "-^", label="maintainer WCU per move"
    )
    ax.set(title="statistics and writes", xscale="log", yscale="log", xlabel="items")
    ax.legend(fontsize=8)
    figure.suptitle("The Z-index engine as data grows (bench/zindex_growth.py, in-memory model of DynamoDB)")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=90)
