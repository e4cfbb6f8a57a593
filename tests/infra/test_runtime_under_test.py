"""The deployed runtime is the one under test: the functions' Python minor version is the one running
these tests, and their Powertools layer holds the very distributions the tests import."""

from __future__ import annotations

import sys
import tomllib
from importlib.metadata import PathDistribution, version
from pathlib import Path

import pytest

from infra.constructs import service_function
from infra.paths import POWERTOOLS_LAYER_DIR, REPO_ROOT
from tests.support.synthesis import Synthesized

# What Lambda's Python runtime provides: a layer copy would shadow the runtime's own.
RUNTIME_DISTRIBUTIONS = {"boto3", "botocore", "s3transfer", "jmespath", "urllib3", "python-dateutil", "six"}


def _this_python() -> str:
    return f"python{sys.version_info.major}.{sys.version_info.minor}"


def _layer_of(synthesized: Synthesized) -> tuple[str, Path]:
    """The Powertools layer's logical id and its asset folder in cdk.out."""
    layers = synthesized.resources("AWS::Lambda::LayerVersion")
    (logical_id,) = [k for k in layers if "Powertools" in k]
    key = layers[logical_id]["Properties"]["Content"]["S3Key"]
    return logical_id, synthesized.cdk_out / f"asset.{key.removesuffix('.zip')}"


def test_every_function_runs_the_python_minor_version_these_tests_run_on(synthesized: Synthesized) -> None:
    runtimes = {f["Properties"]["Runtime"] for f in synthesized.resources("AWS::Lambda::Function").values()}
    assert runtimes == {_this_python()}
    for layer in synthesized.resources("AWS::Lambda::LayerVersion").values():
        assert layer["Properties"]["CompatibleRuntimes"] == [_this_python()]


def test_every_function_loads_the_powertools_layer_built_from_the_pins(synthesized: Synthesized) -> None:
    logical_id, _layer = _layer_of(synthesized)
    for name, function in synthesized.resources("AWS::Lambda::Function").items():
        assert {"Ref": logical_id} in function["Properties"]["Layers"], name


def test_the_layer_holds_what_the_tests_import_at_the_same_versions(synthesized: Synthesized) -> None:
    _logical_id, asset = _layer_of(synthesized)
    held = {
        d.metadata["Name"]: d.version for d in map(PathDistribution, (asset / "python").glob("*.dist-info"))
    }
    assert {"aws_lambda_powertools", "pydantic", "pydantic_core", "aws-xray-sdk"} <= set(held)
    assert {name: version(name) for name in held} == held
    assert not {name.lower().replace("_", "-") for name in held} & RUNTIME_DISTRIBUTIONS


def test_the_layer_is_built_for_lambdas_arm64_and_this_python() -> None:
    (extension,) = (POWERTOOLS_LAYER_DIR / "python" / "pydantic_core").glob("*.so")
    tag = f"cpython-{sys.version_info.major}{sys.version_info.minor}"
    assert f"{tag}-aarch64-linux-gnu" in extension.name
    bytecode = list((POWERTOOLS_LAYER_DIR / "python" / "pydantic").glob(f"__pycache__/*.{tag}.pyc"))
    assert bytecode, "the layer ships bytecode for the runtime's Python (Lambda's /opt is read-only)"


def test_powertools_is_the_release_pyproject_pins() -> None:
    dependencies = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (pin,) = [d for d in dependencies if d.startswith("aws-lambda-powertools")]
    assert pin.endswith(f"=={version('aws-lambda-powertools')}")


def test_synthesis_refuses_a_layer_built_from_other_pins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = tmp_path / "python" / "aws_lambda_powertools-3.31.1.dist-info"
    stale.mkdir(parents=True)
    (stale / "METADATA").write_text("Metadata-Version: 2.1\nName: aws_lambda_powertools\nVersion: 3.31.1\n")
    monkeypatch.setattr(service_function, "POWERTOOLS_LAYER_DIR", tmp_path)
    with pytest.raises(RuntimeError, match=r"aws_lambda_powertools 3\.31\.1\): run `make install`"):
        service_function.pinned_layer_distributions()
    monkeypatch.setattr(service_function, "POWERTOOLS_LAYER_DIR", tmp_path / "missing")
    with pytest.raises(RuntimeError, match="missing or was built from other pins"):
        service_function.pinned_layer_distributions()
