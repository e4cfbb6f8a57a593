"""The wheel installs the project's namespaces only: `tatami` (the CLI) and `tatami_functions` (the
Lambda functions' code); never a generic top-level name (`common`, `models`, ...) that another
distribution could also install, and never `infra` (the CDK app only works in a checkout).

Built with the venv's setuptools from a copy of the checkout, so no build/ folder is left in it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
FUNCTIONS = ROOT / "lambdas" / "tatami_functions"
NAMESPACES = {"tatami", "tatami_functions"}
NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv", "node_modules", "cdk.out", ".local", "__pycache__", "*.egg-info", ".*_cache",
    ".hypothesis", "build", "dist",
)  # fmt: skip


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    source, out = tmp_path_factory.mktemp("source") / "tatami", tmp_path_factory.mktemp("wheel")
    shutil.copytree(ROOT, source, ignore=NOT_SOURCES)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet"]
    built = subprocess.run([*command, "-w", str(out), str(source)], capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    (path,) = out.glob("tatami-*.whl")
    return zipfile.ZipFile(path)


def test_the_top_level_names_are_the_projects_namespaces(wheel: zipfile.ZipFile) -> None:
    firsts = {name.split("/")[0] for name in wheel.namelist()}
    (dist_info,) = {first for first in firsts if first.endswith(".dist-info")}
    assert firsts - {dist_info} == NAMESPACES
    assert set(wheel.read(f"{dist_info}/top_level.txt").decode().split()) == NAMESPACES


def test_the_wheel_holds_every_function_package(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    assert "tatami_functions/places/handler.py" in names
    packages = [path.relative_to(ROOT / "lambdas").as_posix() for path in FUNCTIONS.rglob("__init__.py")]
    assert len(packages) >= 10  # tatami_functions, common, every service and their subpackages
    assert set(packages) <= names


def test_the_wheel_holds_the_data_the_code_reads(wheel: zipfile.ZipFile) -> None:
    """`tatami olap`, the sample loaders, the capacity model and the console read files beside them."""
    names = set(wheel.namelist())
    data = [
        *(ROOT / "tatami" / "samples" / "data").iterdir(),
        *(ROOT / "tatami" / "capacity" / "adapters" / "data").iterdir(),
        *(ROOT / "tatami" / "console" / "static").iterdir(),
        *(FUNCTIONS / "olap" / "queries").iterdir(),
        *(FUNCTIONS / "olap" / "views").iterdir(),
    ]
    wheel_paths = {
        path.relative_to(ROOT / "lambdas" if FUNCTIONS in path.parents else ROOT).as_posix() for path in data
    }
    assert len(wheel_paths) >= 19
    assert wheel_paths <= names, sorted(wheel_paths - names)
