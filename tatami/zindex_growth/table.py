"""Generated places in the model: the declaration's table and GSIs, the places as columns with the index
keys the maintainer would have written, as ``tatami zindex backfill`` would leave them."""

from __future__ import annotations

from typing import Any

from tatami.dynamodb_model import DOCUMENTED, ModelDynamoDB, Semantics
from tatami.dynamodb_model.columns import Column
from tatami.dynamodb_model.numbers import Numbers
from tatami.dynamodb_model.texts import Formatted, Texts
from tatami.zindex_growth.cities import Cities
from tatami.zindex_growth.generator import COORDINATE_SCALE, Places
from tatami.zindex_growth.keys import codes, index_columns
from zindex import IndexedTable

__all__ = ["ID_WIDTH", "create_table", "place_columns", "places_model"]

ID_WIDTH = 9  # digits of a generated id: every size up to 10^9 places has ids of one length


def create_table(model: ModelDynamoDB, declaration: IndexedTable) -> None:
    """The table and GSIs the ZOrderIndex construct makes (infra/constructs/zorder_index.py): keyed by
    the declaration's key, one GSI per index with its kind's keys, INCLUDE the projection."""
    indexes: list[dict[str, Any]] = []
    for index in declaration.indexes:
        (partition, _), (sort, _) = index.gsi_keys(declaration)
        indexes.append(
            {
                "IndexName": index.name,
                "KeySchema": [
                    {"AttributeName": partition, "KeyType": "HASH"},
                    {"AttributeName": sort, "KeyType": "RANGE"},
                ],
                "Projection": {
                    "ProjectionType": "INCLUDE",
                    "NonKeyAttributes": [a for a in declaration.projection if a != sort],
                },
            }
        )
    model.create_table(
        TableName=declaration.table,
        KeySchema=[{"AttributeName": declaration.key[0], "KeyType": "HASH"}],
        GlobalSecondaryIndexes=indexes,
    )


def place_columns(declaration: IndexedTable, places: Places, cities: Cities) -> dict[str, Column]:
    """The places' attributes (a place's name and country are its city's) and their index keys."""
    ids = Formatted(len(places), "", ID_WIDTH)
    city = codes(places.city, len(cities))
    numbers = {
        "latitude": Numbers(places.latitude, COORDINATE_SCALE),
        "longitude": Numbers(places.longitude, COORDINATE_SCALE),
        "population": Numbers(places.population),
    }
    return {
        declaration.key[0]: ids,
        "name": Texts(city, cities.names),
        "country": Texts(city, cities.countries),
        **numbers,
        **index_columns(declaration, numbers, ids),
    }


def places_model(
    declaration: IndexedTable, places: Places, cities: Cities, semantics: Semantics = DOCUMENTED
) -> ModelDynamoDB:
    """A model holding the places, indexed."""
    model = ModelDynamoDB(semantics)
    create_table(model, declaration)
    model.load(declaration.table, place_columns(declaration, places, cities))
    return model
