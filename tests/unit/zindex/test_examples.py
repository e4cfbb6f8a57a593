"""The `>>>` examples of the engine's modules (and the places declaration) run as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import zindex

MODULES = [importlib.import_module(m.name) for m in pkgutil.walk_packages(zindex.__path__, prefix="zindex.")]


@pytest.mark.parametrize("module", [zindex, *MODULES], ids=lambda m: m.__name__)
def test_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_engine_imports_no_aws_sdk_below_its_repository() -> None:
    """Planning is pure: spec, keys, query, statistics, plans and optimizer import neither boto3 nor
    Powertools (checked in a fresh interpreter)."""
    import subprocess
    import sys

    code = (
        "import sys; import zindex.optimizer, zindex.statistics, zindex.cursor; "
        "print(sorted(m for m in ('boto3', 'botocore', 'aws_lambda_powertools') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
