"""What a write costs: a user's write as the places service makes it (``PlacesRepository.put``: the user
attributes, index keys untouched), then the maintainer's batch for its stream record (``maintain``),
each billed by the model. Three kinds of write: a new place, a place moved (new coordinates and
population), a place renamed (nothing indexed changes: the maintainer writes nothing).
"""

from __future__ import annotations

import base64
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np

from tatami.dynamodb_model import ModelDynamoDB
from tatami_functions.places.repository import USER_ATTRIBUTES, PlacesRepository
from zindex import IndexedTable
from zindex.dynamodb import IndexRepository
from zindex.dynamojson import to_wire
from zindex.maintainer import maintain

__all__ = ["KINDS", "WriteCost", "write_costs"]

KINDS = ("new", "moved", "renamed")


@dataclass(frozen=True)
class WriteCost:
    """Mean write units per write of one kind: the user's write, and the maintainer's after it."""

    kind: str
    writes: int
    user_units: float
    maintainer_units: float
    outcomes: dict[str, int]


def _image(item: Mapping[str, Any]) -> dict[str, Any]:
    """An item as a stream image carries it (binaries in base64)."""
    wire = {name: to_wire(value) for name, value in item.items()}
    return {k: {"B": base64.b64encode(v["B"]).decode()} if "B" in v else v for k, v in wire.items()}


def _record(key: str, old: Mapping[str, Any] | None, new: Mapping[str, Any], sequence: int) -> dict[str, Any]:
    data = {"Keys": {"id": {"S": key}}, "NewImage": _image(new), "SequenceNumber": f"{sequence:021d}"}
    if old is not None:
        data["OldImage"] = _image(old)
    return {"eventName": "MODIFY" if old else "INSERT", "eventSource": "aws:dynamodb", "dynamodb": data}


def _attributes(kind: str, old: Mapping[str, Any] | None, rng: np.random.Generator) -> dict[str, Any]:
    given = {k: old[k] for k in USER_ATTRIBUTES if old and k in old}
    if kind == "renamed":
        return given | {"name": f"{given.get('name', '')} (renamed)"}
    latitude, longitude = rng.uniform(-60, 70), rng.uniform(-180, 180)
    return given | {
        "name": given.get("name", "New place"),
        "latitude": Decimal(f"{latitude:.5f}"),
        "longitude": Decimal(f"{longitude:.5f}"),
        "population": int(rng.integers(0, 50_000)),
        "country": given.get("country", "XX"),
    }


def write_costs(
    model: ModelDynamoDB, declaration: IndexedTable, per_kind: int, seed: int = 38
) -> list[WriteCost]:
    """``per_kind`` writes of each kind on existing places (new ones get new ids), billed one by one."""
    table, rng = model.table(declaration.table), np.random.default_rng(seed)
    places, index = (
        PlacesRepository(declaration.table, model.as_client()),
        IndexRepository(declaration, model.as_client()),
    )
    found, sequence = [], 0
    for kind in KINDS:
        user = maintainer = 0
        outcomes: Counter[str] = Counter()
        for n in range(per_kind):
            key = (
                f"new-{n}"
                if kind == "new"
                else table.columns["id"].values(np.array([rng.integers(table.rows)]))[0]
            )
            old = table.get((key,))
            before = sum(model.meter.write_units.values())
            new = places.put(key, _attributes(kind, old, rng))
            middle = sum(model.meter.write_units.values())
            sequence += 1
            outcomes.update(maintain(index, [_record(key, old, new, sequence)]).outcomes)
            user += middle - before
            maintainer += sum(model.meter.write_units.values()) - middle
        found.append(WriteCost(kind, per_kind, user / per_kind, maintainer / per_kind, dict(outcomes)))
    return found
