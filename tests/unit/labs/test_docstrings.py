"""The `>>>` examples of the labs' modules that need no AWS run as written."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from tatami_functions.common import versioned
from tatami_functions.employees import items as employee_items
from tatami_functions.employees import models as employee_models
from tatami_functions.employees import queries
from tatami_functions.invoices import items as invoice_items
from tatami_functions.replication import parking, records

MODULES = [employee_items, employee_models, queries, invoice_items, records, parking, versioned]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
