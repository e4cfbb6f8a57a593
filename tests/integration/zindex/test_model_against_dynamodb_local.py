"""The in-memory model (tatami.dynamodb_model) against DynamoDB Local, box by box: the same searches find
the same places and read, query and pay exactly the same; the maintainer's writes cost the same write
units. The model runs with DynamoDB Local's semantics (its three billing differences from the
documentation and its order of equal keys); the executor reads spans one at a time on both, because
its read-ahead cancels what has not started, and what has started depends on timing."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import zindex.executor
from tatami.dynamodb_model import DYNAMODB_LOCAL, ModelDynamoDB
from tatami.local.engines.traffic import attach
from tests.support.zindex import (
    brute_force,
    create_table,
    loaded_places,
    random_bounds,
    search_all,
    stream_record,
)
from zindex import IndexedTable, SearchQuery
from zindex.analyze import analyze
from zindex.dynamodb import IndexRepository
from zindex.keys import index_keys
from zindex.maintainer import maintain
from zindex.search import Searcher
from zindex.statistics import dumps, loads

Places = tuple[IndexedTable, list[dict[str, Any]]]


@pytest.fixture(scope="module")
def places(client: Any) -> Places:
    """1,200 indexed places in DynamoDB Local (clustered, with the edges), and their statistics."""
    return loaded_places(client, 1200, seed=38)


@pytest.fixture(scope="module")
def model(places: Places) -> ModelDynamoDB:
    """The same places, indexed, in the model."""
    declaration, items = places
    found = ModelDynamoDB(DYNAMODB_LOCAL)
    create_table(found, declaration)
    found.load_items(declaration.table, [{**i, **index_keys(declaration, i)} for i in items])
    return found


@pytest.fixture
def serial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zindex.executor, "MAX_PARALLEL", 1)


def test_statistics_built_on_the_model_are_those_built_on_dynamodb_local(
    client: Any, places: Places, model: ModelDynamoDB
) -> None:
    declaration, _ = places
    analyze(IndexRepository(declaration, model))
    local = loads(declaration, IndexRepository(declaration, client).get_statistics())
    modelled = loads(declaration, IndexRepository(declaration, model).get_statistics())
    assert all(
        dumps(declaration, local, i.name) == dumps(declaration, modelled, i.name) for i in declaration.indexes
    )


def _boxes(rng: random.Random, count: int) -> list[dict[str, Any]]:
    """Random boxes (every access path, the poles, the antimeridian) and city-sized ones."""
    boxes = [random_bounds(rng) for _ in range(count)]
    for _ in range(count // 4):
        lat, lon, km = rng.uniform(-50, 60), rng.uniform(-170, 170), rng.choice([50, 300, 1500])
        low, high = Decimal(str(round(lat - km / 111, 4))), Decimal(str(round(lat + km / 111, 4)))
        boxes.append(
            {
                "latitude": (low, high),
                "longitude": (Decimal(str(round(lon - km / 80, 4))), Decimal(str(round(lon + km / 80, 4)))),
            }
        )
    return boxes


@pytest.mark.usefixtures("serial")
def test_every_box_finds_reads_queries_and_pays_the_same(
    client: Any, places: Places, model: ModelDynamoDB
) -> None:
    declaration, items = places
    statistics = loads(declaration, IndexRepository(declaration, client).get_statistics())
    local = Searcher(IndexRepository(declaration, client), statistics=statistics)
    modelled = Searcher(IndexRepository(declaration, model), statistics=statistics)
    rng, plans = random.Random(38), set()
    for bounds in _boxes(rng, 16):
        query, limit = SearchQuery(declaration, bounds), rng.choice([10, 100, 1000, 10_000])
        found, cost = search_all(local, query, limit)
        same, modelled_cost = search_all(modelled, query, limit)
        assert {i["id"] for i in found} == {i["id"] for i in same} == brute_force(query, items), bounds
        assert [i["id"] for i in found] == [i["id"] for i in same], bounds  # page by page, in order
        assert modelled_cost == cost, (bounds, limit)  # items read and returned, Queries, read units
        plans.add(local.plan(query).chosen.kind)
    assert len(plans) >= 3, plans  # the boxes went through several access paths (Z plans, sorted, Scans)


def _recorded_write_units(directory: Path) -> list[float]:
    lines = [
        json.loads(line)
        for path in sorted(directory.glob("*.jsonl"))
        for line in path.read_text().splitlines()
    ]
    return [line["cc"]["CapacityUnits"] for line in lines if line["op"] == "UpdateItem"]


def test_the_maintainers_writes_cost_the_same_write_units(
    client: Any, places: Places, model: ModelDynamoDB, tmp_path: Path
) -> None:
    """Each place moved, renamed, or new, then the maintainer's batch: write units call by call."""
    declaration, items = places
    attach(client, tmp_path, "test")  # records each call's ConsumedCapacity (INDEXES)
    rng, records = random.Random(5), []
    for n, old in enumerate(rng.sample(items, 12) + [None] * 4):
        new = dict(old) if old else {"id": f"new-{n}", "name": "New", "country": "XX", "population": 7}
        new |= {
            "latitude": Decimal(str(round(rng.uniform(-60, 60), 4))),
            "longitude": Decimal(str(round(rng.uniform(-170, 170), 4))),
        }
        if n % 3 == 0 and old:
            new = {**old, "name": "Renamed"}  # nothing indexed changed: the maintainer writes nothing
        stored = {**new, **({k: v for k, v in index_keys(declaration, old).items()} if old else {})}
        for target in (client, model):
            target.put_item(TableName=declaration.table, Item={k: _wire(v) for k, v in stored.items()})
        records.append(stream_record(stored, "MODIFY" if old else "INSERT", n + 1, old))
    spent = sum(model.meter.write_units.values())
    results = [maintain(IndexRepository(declaration, target), records) for target in (client, model)]
    assert results[0].outcomes == results[1].outcomes and not results[0].failed
    local = _recorded_write_units(tmp_path)[-sum(results[0].outcomes[k] for k in ("written", "removed")) :]
    assert sum(local) == sum(model.meter.write_units.values()) - spent and len(local) >= 8


def _wire(value: Any) -> dict[str, Any]:
    from zindex.dynamojson import to_wire

    return to_wire(value)
