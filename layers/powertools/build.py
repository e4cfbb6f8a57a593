"""Build the Powertools layer the functions deploy with, from the wheels constraints.txt pins.

    .venv/bin/python layers/powertools/build.py layers/powertools/asset    (make install runs it)

The layer holds Powertools with the extras the functions use and pydantic (its request validation),
each at the version `constraints.txt` pins, so the packages the tests import are the packages Lambda
loads (tests/infra/test_powertools_layer.py compares them). The wheels are Lambda's: arm64
(manylinux2014_aarch64), CPython of the runtime's minor version, which is the interpreter running
this script (the Makefile builds the venv on it). What the Python runtime itself provides (boto3 and
its dependencies) stays out, as in AWS's public layer: a layer's botocore would shadow the runtime's.

It replaces AWS's public Powertools layer, whose version for a new release could not be confirmed
without an AWS account (DESIGN.md, "Pins"): built from the pins, the two can never drift. The
layer's modules are compiled by this interpreter, so Lambda (whose /opt is read-only) loads their
bytecode instead of compiling them at every cold start.
"""

from __future__ import annotations

import compileall
import json
import py_compile
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CONSTRAINTS = REPO / "constraints.txt"
LAYER_REQUIREMENTS = ("aws-lambda-powertools[tracer,validation]", "pydantic")
RUNTIME_REQUIREMENTS = ("boto3",)  # what Lambda's Python runtime ships
PLATFORM = "manylinux2014_aarch64"  # infra/constructs/service_function.py: ARCHITECTURE = ARM_64


def _pip(*args: str) -> str:
    python_version = f"{sys.version_info.major}.{sys.version_info.minor}"
    command = [sys.executable, "-m", "pip", *args, "--disable-pip-version-check", "--quiet"]
    command += ["--platform", PLATFORM, "--python-version", python_version, "--implementation", "cp"]
    command += ["--only-binary=:all:", "--constraint", str(CONSTRAINTS)]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def resolve(requirements: tuple[str, ...]) -> dict[str, str]:
    """The distributions (normalised name -> version) pip installs for `requirements` on Lambda."""
    report = json.loads(_pip("install", "--dry-run", "--ignore-installed", "--report", "-", *requirements))
    return {
        item["metadata"]["name"].lower().replace("_", "-"): item["metadata"]["version"]
        for item in report["install"]
    }


def build(target: Path) -> dict[str, str]:
    """Install the layer's distributions (without the runtime's) into `target`/python; returns them."""
    runtime = resolve(RUNTIME_REQUIREMENTS)
    layer = {name: v for name, v in resolve(LAYER_REQUIREMENTS).items() if name not in runtime}
    if target.exists():
        shutil.rmtree(target)
    pins = [f"{name}=={version}" for name, version in sorted(layer.items())]
    _pip("install", "--no-deps", "--no-compile", "--target", str(target / "python"), *pins)
    shutil.rmtree(target / "python" / "bin", ignore_errors=True)  # console scripts: no use in a layer
    # Bytecode checked by nothing (the layer never changes under it) and free of timestamps, so the
    # same pins give the same asset hash on every machine.
    compileall.compile_dir(
        target / "python", quiet=1, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
    )
    return layer


if __name__ == "__main__":
    built = build(Path(sys.argv[1]))
    print("Powertools layer:", ", ".join(f"{name} {version}" for name, version in sorted(built.items())))
