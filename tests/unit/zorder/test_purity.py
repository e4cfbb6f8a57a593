"""zorder is a pure core: standard library only, no boto3, no I/O at import, an explicit public surface."""

from __future__ import annotations

import ast
import doctest
import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import zorder

PACKAGE = Path(zorder.__file__).parent
MODULES = sorted(["zorder"] + [m.name for m in pkgutil.walk_packages([str(PACKAGE)], prefix="zorder.")])


def test_import_does_not_pull_boto3() -> None:
    code = "import sys, zorder; print('boto3' in sys.modules, 'botocore' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": str(PACKAGE.parent)}  # a fresh interpreter, same zorder
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.split() == ["False", "False"]


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_standard_library(path: Path) -> None:
    outside = imported_roots(path) - set(sys.stdlib_module_names) - {"zorder", "__future__"}
    assert not outside, f"{path.name} imports {outside}"


def test_typed_and_explicit() -> None:
    assert (PACKAGE / "py.typed").exists()
    for name in MODULES:
        module = importlib.import_module(name)
        assert isinstance(module.__all__, list), name
        assert all(hasattr(module, item) for item in module.__all__), name
        assert module.__doc__, f"{name} needs a module docstring"


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
