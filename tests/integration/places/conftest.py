"""Places on a DynamoDB Local of its own: the real engine's Query, binary sort keys and streams."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from places import backfill, repository
from places.settings import IndexSettings
from tatami.local.engines import LOCAL_CREDENTIALS
from tatami.local.intrinsics import LOCAL_REGION
from tests.functional.places.helpers import create_table, random_places, settings_for, write_indexed


def resource(endpoint: str) -> Any:
    return boto3.resource("dynamodb", endpoint_url=endpoint, region_name=LOCAL_REGION, **LOCAL_CREDENTIALS)


@pytest.fixture(scope="module")
def local(dynamodb_local: str) -> Iterator[Any]:
    """This module's repository on DynamoDB Local; the previous resource comes back afterwards."""
    saved = list(repository._resources)
    found = resource(dynamodb_local)
    repository.use_resource(found)
    yield found
    repository._resources[:] = saved


@pytest.fixture(scope="module")
def indexed(local: Any) -> tuple[IndexSettings, list[dict[str, Any]]]:
    """3,000 indexed places (clustered, with the edges), and the planner statistics built from them."""
    settings = settings_for(f"places-search-{random.randrange(10**6)}")
    create_table(local.meta.client, settings.table)
    places = random_places(random.Random(11), 3000)
    write_indexed(settings, places)
    backfill.analyze(settings)
    return settings, places
