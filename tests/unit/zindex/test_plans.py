"""Plans cover exactly what they must: every address of the boxes lies in a span of every Z plan, spans
are ordered, disjoint and inside one bucket; statistics only change how the boxes are cut. The
optimizer picks by cost, reports every candidate, and keeps a cursor's plan family."""

from __future__ import annotations

import itertools
import random
from decimal import Decimal as D

from hypothesis import given, settings
from hypothesis import strategies as st

from tatami_functions.places.table import PLACES
from zindex import Attribute, CostModel, IndexedTable, SearchQuery, SortedIndex, ZIndex
from zindex.equidepth import EquiDepth
from zindex.kinds.zplanner import ZPlanner
from zindex.optimizer import choose, explain
from zindex.statistics import Statistics, build
from zorder import UInt

IX = ZIndex("ix", ("y", "x", "z"), bucket_bits=3)
TABLE = IndexedTable(
    "T",
    ("id",),
    (Attribute("y", UInt(4)), Attribute("x", UInt(4)), Attribute("z", UInt(3))),
    (IX, SortedIndex("by-z", "z", shards=2)),
)
SCHEMA = TABLE.schema("ix")
SHIFT = IX.bucket_shift(TABLE)
POINTS = [(y, x, z) for y in range(16) for x in range(16) for z in range(8)]


def _statistics(seed: int) -> Statistics:
    rng = random.Random(seed)
    chosen = [p for p in POINTS if rng.random() < 0.3 and p[0] < 12]  # uneven: nothing above y = 11
    return build(
        TABLE, [{"id": str(i), **dict(zip("yxz", p, strict=True))} for i, p in enumerate(chosen)], 40
    )


interval = st.tuples(st.integers(0, 15), st.integers(0, 15)).map(sorted)
small = st.tuples(st.integers(0, 7), st.integers(0, 7)).map(sorted)


@settings(max_examples=120, deadline=None)
@given(y=interval, x=interval, z=small, seed=st.integers(0, 3), weight=st.sampled_from([0.0, 0.5, 5.0]))
def test_every_z_plan_covers_the_box_in_order_without_overlap(y, x, z, seed, weight) -> None:  # type: ignore[no-untyped-def]
    box = SCHEMA.box({"y": y[0], "x": x[0], "z": z[0]}, {"y": y[1], "x": x[1], "z": z[1]})
    inside = {
        int.from_bytes(SCHEMA.encode({"y": a, "x": b, "z": c}))
        for a in range(y[0], y[1] + 1)
        for b in range(x[0], x[1] + 1)
        for c in range(z[0], z[1] + 1)
    }
    for stats in (_statistics(seed), Statistics.uniform(TABLE)):
        planner = ZPlanner(IX, [box], stats.indexes["ix"], SHIFT, CostModel(query_weight=weight))
        for plan in planner.candidates():
            keys = [(s.partition, s.first, s.last) for s in plan.spans]
            assert keys == sorted(keys) and all(a[2] < b[1] for a, b in itertools.pairwise(keys))
            assert all(s.first >> SHIFT == s.partition == s.last >> SHIFT for s in plan.spans)
            covered = {a for s in plan.spans for a in range(s.first, s.last + 1)}
            assert inside <= covered, plan.kind


def test_two_boxes_across_a_seam_unite_into_one_plan() -> None:
    ix = ZIndex("ix", ("y", "x"), bucket_bits=0)
    seam = IndexedTable("T", ("id",), (Attribute("y", UInt(4)), Attribute("x", UInt(4), wraps=True)), (ix,))
    boxes = ix.boxes(SearchQuery(seam, {"x": (13, 2)}))
    planner = ZPlanner(ix, boxes, Statistics.uniform(seam).indexes["ix"], 8, CostModel())
    spans = planner.candidates()[1].spans
    keys = [(s.first, s.last) for s in spans]
    assert keys == sorted(keys) and all(a[1] < b[0] for a, b in itertools.pairwise(keys))
    wanted = {a for box in boxes for a in range(box.zmin, box.zmax + 1) if box.contains(a)}
    assert wanted <= {a for s in spans for a in range(s.first, s.last + 1)}


def test_statistics_steer_the_cuts_toward_where_the_entries_are() -> None:
    """With half the entries in the box's corner and half far outside it, the cheapest plan reads
    about what the box holds."""
    near = [{"id": str(i), "y": 1, "x": 1, "z": i % 4} for i in range(200)]
    far = [{"id": f"f{i}", "y": 14, "x": 14, "z": i % 8} for i in range(200)]
    corner = build(TABLE, near + far)
    query = SearchQuery(TABLE, {"y": (0, 5), "x": (0, 5), "z": (0, 3)})
    chosen = choose(query, corner, CostModel()).chosen
    assert chosen.kind.startswith("z-") and chosen.estimate.reads <= 1.05 * chosen.estimate.results


def test_a_selective_bound_on_a_sorted_attribute_picks_the_sorted_index() -> None:
    stats = build(
        PLACES.named("T"),
        [
            {"id": str(i), "latitude": D(i % 170 - 85), "longitude": D(i % 350 - 175), "population": i * 10}
            for i in range(5000)
        ],
    )
    choice = choose(SearchQuery(PLACES.named("T"), {"population": (49_000, None)}), stats, CostModel())
    assert choice.chosen.kind == "sorted" and choice.chosen.index == "places-population"
    assert 80 <= choice.chosen.estimate.reads <= 120  # 100 populations of 49,000 and more
    rows = explain(choice)
    assert [r["chosen"] for r in rows].count(True) == 1 and rows[0]["chosen"]
    assert {r["kind"] for r in rows} >= {"z-ranges", "z-between", "z-walk", "sorted", "scan"}
    assert [r["cost"] for r in rows] == sorted(r["cost"] for r in rows)
    pinned = choose(
        SearchQuery(PLACES.named("T"), {"population": (49_000, None)}),
        stats,
        CostModel(),
        family="z:places-z",
    )
    assert pinned.chosen.kind.startswith("z-")  # a page cursor keeps its plan's order


def test_an_equi_depth_histogram_counts_exactly_when_it_keeps_every_key() -> None:
    rng = random.Random(3)
    keys = sorted(rng.randrange(1000) for _ in range(300))
    exact = EquiDepth.of(keys, max_groups=1000)
    coarse = EquiDepth.of(keys, max_groups=30)
    for _ in range(200):
        lo = rng.randrange(1000)
        hi = lo + rng.randrange(400)
        truth = sum(lo <= k <= hi for k in keys)
        assert exact.count(lo, hi) == truth
        assert abs(coarse.count(lo, hi) - truth) <= 2 * coarse.depth  # off by less than a group per end
