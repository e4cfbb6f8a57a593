"""The figures of one size, from what was measured there (tatami.zindex_growth.point.Point)."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from _zorder_search.figures import percentile

from tatami.zindex_growth.measure import Measured
from tatami.zindex_growth.point import Point
from tatami.zindex_growth.workload import TIERS, Box
from zindex.plan import CostModel

LARGE_BOX = 50  # places: the boxes the amplification goals speak of (as bench/zorder_search.py)


def _spread(values: list[float]) -> dict[str, float]:
    if not values:
        return {"median": float("nan"), "p95": float("nan"), "max": float("nan")}
    return {"median": statistics.median(values), "p95": percentile(values, 0.95), "max": max(values)}


def _tier(point: Point, tier: int, model: CostModel) -> dict[str, Any]:
    runs = [(box, m) for box, m in point.boxes if box.spec.tier == tier]
    found = [len(m.chosen.rows) for _, m in runs]
    return {
        "boxes": len(runs),
        "results": _spread([float(n) for n in found]),
        "rcu_per_result": _spread([m.chosen.rcu / max(len(m.chosen.rows), 1) for _, m in runs]),
        "amplification": _spread([m.chosen.read / max(len(m.chosen.rows), 1) for _, m in runs]),
        "queries": _spread([float(m.chosen.queries) for _, m in runs]),
        "within": sum(m.within(model) for _, m in runs) / max(len(runs), 1),
    }


def _box(box: Box, measured: Measured, model: CostModel) -> dict[str, Any]:
    """One box, for the JSON (what was asked, what was read, which plan, which was cheapest)."""
    run = measured.chosen
    return {
        "tier": box.spec.tier,
        "floor": box.spec.floor,
        "expected": round(box.expected, 1),
        "places": len(run.rows),
        "read": run.read,
        "queries": run.queries,
        "rcu": run.rcu,
        "planning_ms": round(run.planning_ms, 2),
        "plan": run.plan.split(" (")[0],
        "cheapest": measured.cheapest(model).split(" (")[0],
        "within": measured.within(model),
    }


def _amplification(boxes: list[dict[str, Any]], floored: bool | None = None) -> dict[str, float]:
    """Items read per place over boxes of LARGE_BOX places or more (with a population floor, without
    one, or all of them)."""
    return _spread(
        [
            b["read"] / b["places"]
            for b in boxes
            if b["places"] >= LARGE_BOX and (floored is None or (b["floor"] is not None) == floored)
        ]
    )


def summarize(point: Point, model: CostModel) -> dict[str, Any]:
    measured = [m for _, m in point.boxes]
    boxes = [_box(box, m, model) for box, m in point.boxes]
    world = point.world
    assert world is not None and point.refresh is not None
    return {
        "size": point.size,
        "tiers": {str(tier): _tier(point, tier, model) for tier in TIERS},
        "amplification_large": _amplification(boxes),
        "amplification_large_without_floor": _amplification(boxes, floored=False),
        "amplification_large_with_floor": _amplification(boxes, floored=True),
        "within": sum(m.within(model) for m in measured) / len(measured),
        "planning_ms": _spread([m.chosen.planning_ms for m in measured]),
        "plans": dict(Counter(m.chosen.plan.split(" (")[0] for m in measured)),
        "cheapest": dict(Counter(m.cheapest(model).split(" (")[0] for m in measured)),
        "unsized": point.unsized,
        "world": {
            "results": len(world.chosen.rows),
            "expected": point.world_expected,
            "read": world.chosen.read,
            "queries": world.chosen.queries,
            "rcu": world.chosen.rcu,
            "plan": world.chosen.plan,
            "within": world.within(model),
        },
        "statistics": {
            "bytes": point.refresh.bytes_by_index,
            "refresh_read_units": point.refresh.read_units,
            "refresh_write_units": point.refresh.write_units,
        },
        "writes": {w.kind: {"user": w.user_units, "maintainer": w.maintainer_units} for w in point.writes},
        "designs": [vars(d) for d in point.designs],
        "model_bytes": point.model_bytes,
        "peak_rss_bytes": point.peak_rss_bytes,
        "seconds": point.seconds,
        "boxes": boxes,
    }
