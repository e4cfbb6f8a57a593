"""Workers run as Lambda runs them: an import path of the asset, its layers and the runtime's boto3
only, and an environment of the template's variables plus Lambda's own."""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

import pytest

from tatami.local.functions.environment import function_environment
from tatami.local.functions.pool import FunctionPool
from tatami.local.functions.sandbox.runtime import Runtime
from tatami.local.template.assembly import FunctionSpec

HANDLER = """
import importlib, os, sys

def handler(event, context):
    try:
        importlib.import_module(event["module"])
    except ImportError as exc:
        return {"imported": False, "error": f"{type(exc).__name__}: {exc}", "env": sorted(os.environ)}
    return {"imported": True, "env": sorted(os.environ)}
"""
# The CLI's scan: installed in the project's venv, in no asset (the export function's old mistake).
OUTSIDE = "import tatami.scan\n\n\ndef handler(event, context):\n    return 1\n"


def spec(asset: Path, handler: str, layers: tuple[Path, ...] = ()) -> FunctionSpec:
    return FunctionSpec("Probe", "Local-Probe", handler, asset, layers, (), {}, 5, 128, "python3.13")


def pool(tmp_path: Path, function: FunctionSpec) -> FunctionPool:
    runtime = Runtime.build(tmp_path / "work", function.layer_dirs)
    runtime_file = tmp_path / "runtime.json"
    sys_path = runtime.import_path(function.code_dir, function.layer_dirs)
    runtime_file.write_text(json.dumps({"sys_path": sys_path, "function_arn": "arn:aws:lambda:x", "iam": {}}))
    declared = {"TABLE": "t"}
    env = function_environment(function, declared, runtime_file, "http://127.0.0.1:1", "http://127.0.0.1:2")
    return FunctionPool(function, env, lambda name, line: None, max_workers=1)


def test_a_handler_importing_outside_its_asset_fails_as_in_lambda(tmp_path: Path) -> None:
    asset = tmp_path / "asset"
    asset.mkdir()
    (asset / "app.py").write_text(OUTSIDE)
    functions = pool(tmp_path, spec(asset, "app.handler"))
    try:
        invocation = functions.invoke({})
    finally:
        functions.close()
    assert not invocation.ok
    assert invocation.error["errorType"] == "Runtime.ImportModuleError"
    assert invocation.error["errorMessage"] == "No module named 'tatami'"


@pytest.mark.parametrize(
    ("module", "imported"),
    [
        ("boto3", True),  # the runtime provides it
        ("layered", True),  # in the function's layer
        ("json", True),
        ("moto", False),  # in the venv, not in Lambda
        ("tatami.local.functions.worker", False),  # the local cloud's own code, although it runs the worker
        ("zorder", False),  # the project's layer, but not this function's
    ],
)
def test_the_import_path_is_the_asset_its_layers_and_the_runtime(
    tmp_path: Path, module: str, imported: bool
) -> None:
    asset, layer = tmp_path / "asset", tmp_path / "layer"
    asset.mkdir()
    (layer / "python").mkdir(parents=True)
    (asset / "app.py").write_text(HANDLER)
    (layer / "python" / "layered.py").write_text("VALUE = 1\n")
    functions = pool(tmp_path, spec(asset, "app.handler", (layer,)))
    try:
        invocation = functions.invoke({"module": module})
    finally:
        functions.close()
    assert invocation.ok, invocation.error
    assert invocation.result["imported"] is imported, invocation.result
    env = set(invocation.result["env"])
    assert "TABLE" in env and "AWS_LAMBDA_FUNCTION_NAME" in env and "_HANDLER" in env
    assert not {"TATAMI_RUNTIME", "HOME", "VIRTUAL_ENV", "PYTHONPATH"} & env
    # No bytecode written beside the sources: cdk.out's assets are what `cdk deploy` zips.
    assert not [*asset.rglob("*.pyc"), *layer.rglob("*.pyc")]


@pytest.mark.parametrize(("module", "imported"), [("fastjsonschema", True), ("wrapt", False)])
def test_a_layer_built_from_wheels_is_served_by_this_pythons_installs_of_them(
    tmp_path: Path, module: str, imported: bool
) -> None:
    """The Powertools layer's wheels are Lambda's (arm64): locally the same distributions come from
    the venv, and only those the layer holds (synthesis checks their versions are the venv's)."""
    asset, layer = tmp_path / "asset", tmp_path / "layer"
    asset.mkdir()
    (asset / "app.py").write_text(HANDLER)
    held = version("fastjsonschema")
    info = layer / "python" / f"fastjsonschema-{held}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: fastjsonschema\nVersion: {held}\n")
    functions = pool(tmp_path, spec(asset, "app.handler", (layer,)))
    try:
        invocation = functions.invoke({"module": module})
    finally:
        functions.close()
    assert invocation.ok, invocation.error
    assert invocation.result["imported"] is imported, invocation.result
