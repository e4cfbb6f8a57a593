"""The `zorder` distribution's public API is what `__all__` says in the modules docs/library.md documents:
every name exists, says what it is (a docstring; for a constant, the string right after its assignment)
and is listed in the document; the version is written once, and the changelog's newest entry is it."""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import itertools
import re
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

import zindex
import zorder

ROOT = Path(__file__).resolve().parents[3]
LIBRARY = ROOT / "layers" / "zorder"
DOC = ROOT / "docs" / "library.md"
PUBLIC = ("zorder", "zindex", "zindex.analyze", "zindex.lambda_handler")
NAMES = [(module, name) for module in PUBLIC for name in importlib.import_module(module).__all__]


@functools.cache
def attribute_docstrings(package: ModuleType) -> dict[str, str]:
    """Module-level constants documented the way Sphinx reads them: a string literal after the assignment."""
    found = {}
    for path in Path(package.__file__ or "").parent.rglob("*.py"):
        body = ast.parse(path.read_text(encoding="utf-8")).body
        for statement, following in itertools.pairwise(body):
            documented = isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
            if isinstance(statement, ast.Assign) and documented:
                assert isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
                for target in statement.targets:
                    if isinstance(target, ast.Name) and isinstance(following.value.value, str):
                        found[target.id] = following.value.value
    return found


def own_docstring(value: object) -> str:
    """The docstring written for ``value``: not one inherited, nor the signature a dataclass makes up."""
    doc = vars(value).get("__doc__") if inspect.isclass(value) else getattr(value, "__doc__", None)
    name = getattr(value, "__name__", "")
    return "" if not doc or doc.startswith(f"{name}(") else doc


def doc_sections() -> dict[str, str]:
    """docs/library.md's API reference: the text under each ``### `module` `` heading."""
    parts = re.split(r"^### `([\w.]+)`[^\n]*$", DOC.read_text(encoding="utf-8"), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


@pytest.mark.parametrize(("module", "name"), NAMES, ids=[f"{m}.{n}" for m, n in NAMES])
def test_every_public_name_exists_and_says_what_it_is(module: str, name: str) -> None:
    value = getattr(importlib.import_module(module), name)
    if inspect.isclass(value) or inspect.isroutine(value):
        assert own_docstring(value), f"{module}.{name} needs a docstring"
    else:
        package = zorder if module.startswith("zorder") else zindex
        assert attribute_docstrings(package).get(name), f"{module}.{name}: document it by a string after it"


def test_the_document_lists_every_public_name_under_its_module() -> None:
    sections = doc_sections()
    assert set(sections) == set(PUBLIC), "docs/library.md has one API section per public module"
    missing = [f"{m}.{n}" for m, n in NAMES if f"`{n}`" not in sections[m]]
    assert not missing, f"docs/library.md does not list {missing}"


def test_one_version_the_changelog_and_the_build_agree_on() -> None:
    project = tomllib.loads((LIBRARY / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "zorder.__version__"}
    assert zindex.__version__ == zorder.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", zorder.__version__)
    newest = re.search(
        r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", (LIBRARY / "CHANGELOG.md").read_text(), re.M
    )
    assert newest and newest.group(1) == zorder.__version__, "CHANGELOG.md's newest release is the version"


def test_both_packages_are_typed() -> None:
    for package in (zorder, zindex):
        assert (Path(package.__file__ or "").parent / "py.typed").is_file()
