"""The `>>>` examples of the labs' services' modules that need no AWS run as written."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from tatami_functions.common import versioned
from tatami_functions.employees import partition, questions
from tatami_functions.employees import schemas as employee_schemas
from tatami_functions.invoices import adjacency
from tatami_functions.replication import parking, records

MODULES = [partition, employee_schemas, questions, adjacency, records, parking, versioned]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
