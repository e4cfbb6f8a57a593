"""The distribution installs with boto3 alone: what its modules import is the standard library, the two
packages, and boto3 (botocore comes with it); Powertools only in the packaged Lambda handler, the
``lambda`` extra. Checked in the source, and in a fresh interpreter where Powertools cannot be imported."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import zindex

LIBRARY = Path(zindex.__file__ or "").parents[2]
PACKAGES = LIBRARY / "python"
HANDLER = "zindex.lambda_handler"
OWN = {"zorder", "zindex", "__future__"}
BOTO3 = {"boto3", "botocore"}


def runtime_imports(path: Path) -> set[str]:
    """The top-level names a module imports when it runs (``if TYPE_CHECKING:`` blocks left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for statement in block.body
        for node in ast.walk(statement)
    }
    roots = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots - set(sys.stdlib_module_names) - OWN


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGES).with_suffix("").parts).removesuffix(".__init__")


def test_boto3_is_the_one_runtime_dependency_and_powertools_the_handlers_extra() -> None:
    imports = {module_name(path): runtime_imports(path) for path in sorted(PACKAGES.rglob("*.py"))}
    assert imports.pop(HANDLER) == {"aws_lambda_powertools"}
    outside = {name: found - BOTO3 for name, found in imports.items() if found - BOTO3}
    assert not outside, f"only boto3 is declared: {outside}"
    project = tomllib.loads((LIBRARY / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert [r.split(">")[0] for r in project["dependencies"]] == ["boto3"]
    assert [r.split(">")[0] for r in project["optional-dependencies"]["lambda"]] == ["aws-lambda-powertools"]


BLOCKED = """
import importlib, json, pkgutil, sys
sys.modules["aws_lambda_powertools"] = None  # as if it were not installed
import zindex, zorder
names = [m.name for p in (zorder, zindex) for m in pkgutil.walk_packages(p.__path__, p.__name__ + ".")]
failed = {}
for name in names:
    try:
        importlib.import_module(name)
    except ImportError as exc:
        failed[name] = exc.name
print(json.dumps({"modules": len(names), "failed": failed}))
"""


def test_every_module_but_the_handler_imports_without_powertools() -> None:
    """Search, maintainer, analyze and the handler's metric names included (a CDK app imports those)."""
    out = subprocess.run([sys.executable, "-c", BLOCKED], capture_output=True, text=True, check=True).stdout
    found = json.loads(out)
    assert found["modules"] > 30
    assert found["failed"] == {HANDLER: "aws_lambda_powertools"}
