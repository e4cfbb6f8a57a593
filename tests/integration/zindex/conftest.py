"""The engine on a DynamoDB Local of its own: real Queries, Scans, binary sort keys and streams."""

from __future__ import annotations

from typing import Any

import pytest

from tatami.local.engines import processes as engines
from tests.support.zindex import loaded_places
from zindex import IndexedTable


@pytest.fixture(scope="module")
def client(dynamodb_local: str) -> Any:
    return engines.dynamodb_client(dynamodb_local)


@pytest.fixture(scope="module")
def places(client: Any) -> tuple[IndexedTable, list[dict[str, Any]]]:
    """3,000 indexed places (clustered, with the edges), and the statistics built from them."""
    return loaded_places(client, 3000, seed=11)
