"""The `>>>` examples of the places modules that need no AWS run as written."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from places import addressing, density, models, planner, query, settings, statistics

MODULES = [addressing, density, models, planner, query, settings, statistics]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
