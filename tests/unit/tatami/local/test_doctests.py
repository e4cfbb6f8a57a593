"""The >>> examples in the local cloud's docstrings run and hold."""

import doctest
import importlib

import pytest

MODULES = ["template.intrinsics", "gateway.routes", "events.filters", "events.rules"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"tatami.local.{name}")
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
