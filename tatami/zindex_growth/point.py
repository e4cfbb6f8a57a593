"""One size measured end to end: places generated and indexed in the model, statistics analysed, every
box of the workload searched and checked, the world-wide search, writes billed, memory and time taken.

The executor reads one span at a time here (``serial``): its read-ahead cancels what has not started,
and what has started depends on how fast the store answers, which the model is not there to imitate.
"""

from __future__ import annotations

import contextlib
import resource
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

import zindex.executor
from tatami.dynamodb_model.table import Table
from tatami.zindex_growth.cities import Cities
from tatami.zindex_growth.costs import Design
from tatami.zindex_growth.designs import designs
from tatami.zindex_growth.generator import Density, generate
from tatami.zindex_growth.measure import Measured, measure
from tatami.zindex_growth.statistics import Refresh, refresh_cost, statistics
from tatami.zindex_growth.table import places_model
from tatami.zindex_growth.workload import Box, BoxSpec, sized, world
from tatami.zindex_growth.writes import WriteCost, write_costs
from zindex import IndexedTable, SearchQuery
from zindex.dynamodb import IndexRepository
from zindex.search import Searcher
from zindex.statistics import MAX_GROUPS

__all__ = ["Point", "measure_point", "model_bytes", "serial"]

PAGE = 10_000  # the API's largest page: a search's Queries are its plan's, not its page count's


@contextlib.contextmanager
def serial() -> Iterator[None]:
    """The executor reading one span at a time (deterministic costs)."""
    before = zindex.executor.MAX_PARALLEL
    zindex.executor.MAX_PARALLEL = 1
    try:
        yield
    finally:
        zindex.executor.MAX_PARALLEL = before


def model_bytes(table: Table) -> int:
    """What the model holds for a table: its columns' arrays, index orders and size arrays."""
    arrays = [a for c in table.columns.values() for a in vars(c).values() if isinstance(a, np.ndarray)]
    arrays += [i.order for i in table.indexes.values()] + [table.item_bytes, *table.entry_bytes.values()]
    return sum({id(a): a.nbytes for a in arrays}.values())


@dataclass
class Point:
    """Everything measured at one size."""

    size: int
    boxes: list[tuple[Box, Measured]] = field(default_factory=list)
    world: Measured | None = None
    world_expected: float = 0.0
    refresh: Refresh | None = None
    writes: list[WriteCost] = field(default_factory=list)
    designs: list[Design] = field(default_factory=list)
    unsized: int = 0  # boxes whose tier even the whole world cannot hold at this size
    model_bytes: int = 0
    peak_rss_bytes: int = 0
    seconds: dict[str, float] = field(default_factory=dict)


def measure_point(
    declaration: IndexedTable,
    cities: Cities,
    size: int,
    specs: Sequence[BoxSpec],
    writes_per_kind: int = 50,
    log: Callable[[str], None] = lambda line: None,
    groups: int = MAX_GROUPS,
) -> Point:
    """Measure one size (``groups``: the statistics' histogram groups, ``analyze``'s by default)."""
    point, clock, density = Point(size), time.monotonic(), Density(cities)

    def lap(name: str) -> None:
        nonlocal clock
        point.seconds[name], clock = time.monotonic() - clock, time.monotonic()
        log(f"  {size:,}: {name} in {point.seconds[name]:.0f} s")

    model = places_model(declaration, generate(size, cities), cities)
    table = model.table(declaration.table)
    point.model_bytes = model_bytes(table)
    lap("generated and indexed")
    built = statistics(declaration, table, groups)
    point.refresh = refresh_cost(declaration, table, built)
    lap("statistics")
    searcher = Searcher(IndexRepository(declaration, model.as_client()), statistics=built)
    boxes = [b for b in (sized(density, s, size) for s in specs) if b is not None]
    point.unsized = len(specs) - len(boxes)
    with serial():
        for n, box in enumerate(boxes, 1):
            point.boxes.append((box, measure(searcher, table, SearchQuery(declaration, box.bounds), PAGE)))
            if n % 20 == 0:
                log(f"  {size:,}: {n}/{len(boxes)} boxes")
        bounds, point.world_expected = world(density, size)
        point.world = measure(searcher, table, SearchQuery(declaration, bounds), PAGE)
    lap("searches")
    point.writes = write_costs(model, declaration, writes_per_kind)
    lap("writes")
    point.designs = designs(declaration, table, [m for _, m in point.boxes], point.writes)
    lap("designs")
    point.peak_rss_bytes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return point
