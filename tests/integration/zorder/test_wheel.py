"""The `zorder` distribution as a user gets it: a wheel built from a copy of layers/zorder, installed in a
fresh virtual environment with nothing but what the wheel requires (boto3 and its own dependencies),
where every module's docstring examples pass and docs/library.md's search runs against DynamoDB Local.

pip fetches boto3 from the package index (its cache serves it when warm, and constraints.txt pins it);
when pip cannot install and the index is unreachable, the tests skip and say so.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import zipfile
from pathlib import Path
from urllib.parse import urlparse

import boto3
import pytest

import zorder
from tatami.local.engines.processes import LOCAL_CREDENTIALS
from tatami.local.template.intrinsics import LOCAL_REGION

pytestmark = [pytest.mark.network, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[3]
LIBRARY = ROOT / "layers" / "zorder"
HANDLER = "zindex.lambda_handler"  # the one module that needs the `lambda` extra
DOCS_SEARCH = re.compile(r"^## A search in ten lines$.*?^```python\n(.*?)^```", re.M | re.S)


def index_unreachable() -> str | None:
    """Why pip cannot reach its index (None: it can): the index pip is configured with, else PyPI."""
    configured = subprocess.run(
        [sys.executable, "-m", "pip", "config", "get", "global.index-url"], capture_output=True, text=True
    ).stdout.strip()
    url = os.environ.get("PIP_INDEX_URL") or configured or "https://pypi.org/simple"
    host = urlparse(url).hostname or "pypi.org"
    try:
        socket.create_connection((host, 443), timeout=5).close()
    except OSError as exc:
        return f"{host} is unreachable ({exc})"
    return None


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built from a copy (the checkout keeps no build/ or egg-info of it) by the project's PEP 517 backend,
    as `pip wheel --no-deps` would, without pip's start-up: the venv's setuptools, so no index either."""
    source, out = tmp_path_factory.mktemp("library") / "zorder", tmp_path_factory.mktemp("dist")
    shutil.copytree(LIBRARY, source, ignore=shutil.ignore_patterns("*.egg-info", "__pycache__", "build"))
    build = f"from setuptools import build_meta; print(build_meta.build_wheel({str(out)!r}))"
    built = subprocess.run([sys.executable, "-c", build], capture_output=True, text=True, cwd=source)
    assert built.returncode == 0, built.stdout + built.stderr
    return out / built.stdout.split()[-1]


@pytest.fixture(scope="module")
def fresh_python(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment holding the wheel and what it requires; not even pip (ours installs)."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--clear", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-input"]
    pip.append("--no-compile")  # a second of CPU: the examples import few of botocore's modules
    installed = subprocess.run(
        [*pip, "--constraint", str(ROOT / "constraints.txt"), str(wheel)], capture_output=True, text=True
    )
    if installed.returncode != 0:
        reason = index_unreachable()
        if reason:
            pytest.skip(f"cannot install boto3 for the wheel: {reason}; pip said: {installed.stderr[-300:]}")
        pytest.fail(f"pip could not install the wheel:\n{installed.stdout}{installed.stderr}")
    return python


def run_there(python: Path, code: str, **env: str) -> str:
    """Run ``code`` in the fresh environment, away from the checkout (no PYTHONPATH, a neutral folder)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "AWS_"))} | env
    done = subprocess.run(
        [str(python), "-I", "-c", code], capture_output=True, text=True, env=clean, cwd=python.parents[1]
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_wheel_is_typed_requires_boto3_and_offers_powertools_as_an_extra(wheel: Path) -> None:
    assert wheel.name.startswith(f"zorder-{zorder.__version__}-py3-none-any")
    names = zipfile.ZipFile(wheel).namelist()
    assert {"zorder/py.typed", "zindex/py.typed", "zindex/lambda_handler.py"} <= set(names)
    (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    requires = re.findall(r"^Requires-Dist: (.*)$", zipfile.ZipFile(wheel).read(metadata).decode(), re.M)
    assert [r for r in requires if "extra ==" not in r] == ["boto3>=1.26"]
    assert [r for r in requires if "extra ==" in r] == ['aws-lambda-powertools<4,>=3; extra == "lambda"']


INSTALLED = """
import importlib.metadata as md, json, re
def closure(name, seen):
    for requirement in md.requires(name) or []:
        if "extra ==" not in requirement:
            dependency = re.split(r"[ ;<>=!~\\[]", requirement, maxsplit=1)[0].lower().replace("_", "-")
            if dependency not in seen:
                seen.add(dependency)
                closure(dependency, seen)
    return seen
installed = sorted(d.metadata["Name"].lower().replace("_", "-") for d in md.distributions())
print(json.dumps({"installed": installed, "required": sorted(closure("zorder", {"zorder"}))}))
"""


def test_installed_with_boto3_alone(fresh_python: Path) -> None:
    found = json.loads(run_there(fresh_python, INSTALLED))
    assert found["installed"] == found["required"]
    assert {"zorder", "boto3", "botocore"} <= set(found["installed"])
    assert "aws-lambda-powertools" not in found["installed"]


DOCTESTS = """
import doctest, importlib, json, pkgutil, sys
import zindex, zorder
results, handler = {}, None
for package in (zorder, zindex):
    modules = pkgutil.walk_packages(package.__path__, package.__name__ + ".")
    for name in [package.__name__] + [m.name for m in modules]:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            handler = [name, exc.name]
            continue
        assert "site-packages" in module.__file__, module.__file__
        found = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        results[name] = [found.failed, found.attempted]
print(json.dumps({"results": results, "handler": handler, "version": zindex.__version__}))
"""


def test_the_docstring_examples_pass_there(fresh_python: Path) -> None:
    """Every module's `>>>` examples, run with the standard library's doctest (pytest is not installed);
    the Powertools handler alone does not import, and says what it misses."""
    found = json.loads(run_there(fresh_python, DOCTESTS))
    failed = {name: counts for name, counts in found["results"].items() if counts[0]}
    assert not failed, f"failed examples (failed, attempted): {failed}"
    assert sum(attempted for _, attempted in found["results"].values()) >= 100
    assert len(found["results"]) > 30
    assert found["handler"] == [HANDLER, "aws_lambda_powertools"]
    assert found["version"] == zorder.__version__


def test_the_documented_search_runs_there(fresh_python: Path, dynamodb_local: str) -> None:
    """docs/library.md's ten lines, as written, on a table shaped as the document says."""
    match = DOCS_SEARCH.search((ROOT / "docs" / "library.md").read_text(encoding="utf-8"))
    assert match, "docs/library.md keeps its example under '## A search in ten lines'"
    client = boto3.client(
        "dynamodb", endpoint_url=dynamodb_local, region_name=LOCAL_REGION, **LOCAL_CREDENTIALS
    )
    client.create_table(
        TableName="Listings",
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[
            {"AttributeName": "id", "AttributeType": "S"},
            {"AttributeName": "zbucket", "AttributeType": "S"},
            {"AttributeName": "zaddr", "AttributeType": "B"},
        ],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[
            {
                "IndexName": "listings-z",
                "KeySchema": [
                    {"AttributeName": "zbucket", "KeyType": "HASH"},
                    {"AttributeName": "zaddr", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["price", "area"]},
            }
        ],
    )
    env = {
        "AWS_ENDPOINT_URL_DYNAMODB": dynamodb_local,
        "AWS_DEFAULT_REGION": LOCAL_REGION,
        "AWS_ACCESS_KEY_ID": LOCAL_CREDENTIALS["aws_access_key_id"],
        "AWS_SECRET_ACCESS_KEY": LOCAL_CREDENTIALS["aws_secret_access_key"],
    }
    assert run_there(fresh_python, match.group(1), **env).strip() == "['a'] None"
