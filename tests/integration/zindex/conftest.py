"""The engine on a DynamoDB Local of its own: real Queries, Scans, binary sort keys and streams."""

from __future__ import annotations

import random
import uuid
from typing import Any

import boto3
import pytest

from tatami.local.engines.processes import LOCAL_CREDENTIALS
from tatami.local.template.intrinsics import LOCAL_REGION
from tests.support.zindex import create_table, places_on, random_places, write_indexed
from zindex import IndexedTable
from zindex.analyze import analyze
from zindex.dynamodb import IndexRepository


@pytest.fixture(scope="module")
def client(dynamodb_local: str) -> Any:
    return boto3.client(
        "dynamodb", endpoint_url=dynamodb_local, region_name=LOCAL_REGION, **LOCAL_CREDENTIALS
    )


@pytest.fixture(scope="module")
def places(client: Any) -> tuple[IndexedTable, list[dict[str, Any]]]:
    """3,000 indexed places (clustered, with the edges), and the statistics built from them."""
    declaration = places_on(f"places-{uuid.uuid4().hex[:8]}")
    create_table(client, declaration)
    items = random_places(random.Random(11), 3000)
    write_indexed(client, declaration, items)
    analyze(IndexRepository(declaration, client))
    return declaration, items
