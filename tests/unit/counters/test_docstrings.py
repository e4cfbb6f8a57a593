"""The `>>>` examples of the counters modules that need no AWS run as written."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from tatami_functions.counters import idempotency, repository, rollup, service, sharding


@pytest.mark.parametrize(
    "module", [sharding, rollup, idempotency, repository, service], ids=lambda m: m.__name__
)
def test_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
