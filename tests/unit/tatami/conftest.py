"""cities500 with each city's spread, read once for the tests that grow places from it."""

from __future__ import annotations

import pytest

from tatami.zindex_growth.cities import Cities, cities500


@pytest.fixture(scope="session")
def growth_cities() -> Cities:
    return cities500()
