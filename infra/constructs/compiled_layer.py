"""A layer of pure Python shipped with its bytecode, compiled at synthesis by the runtime's Python.

Lambda's /opt is read-only, so a layer of sources alone is compiled again at every cold start: the
zorder layer's engine is about 90 ms of CPU of the search functions' init that way
(bench/cold_start.py). The venv runs the runtime's minor version (infra/constants.py), so the
bytecode synthesis writes is the bytecode Lambda loads. It is checked against nothing (the layer
never changes under it), and the asset is known by its sources, not its bytes (marshal's output
varies between runs). Function assets stay source only: their own modules are a few ms each.
"""

from __future__ import annotations

import compileall
import py_compile
import shutil
from pathlib import Path
from typing import Any

import jsii
from aws_cdk import BundlingOptions, DockerImage, ILocalBundling
from aws_cdk import aws_lambda as lambda_

_SKIPPED = ("__pycache__", "*.pyc", "*.egg-info", ".mypy_cache")


@jsii.implements(ILocalBundling)
class _CompiledCopy:
    """CDK's local bundling: copy the layer's `python/` folder and compile it (no Docker involved)."""

    def __init__(self, source: Path) -> None:
        self.source = source

    def try_bundle(self, output_dir: str, *_args: Any, **_options: Any) -> bool:
        target = Path(output_dir) / "python"
        shutil.copytree(self.source / "python", target, ignore=shutil.ignore_patterns(*_SKIPPED))
        unchecked = py_compile.PycInvalidationMode.UNCHECKED_HASH
        return compileall.compile_dir(target, quiet=1, invalidation_mode=unchecked)


def compiled_layer_code(source: Path) -> lambda_.Code:
    """The asset of a layer folder (holding `python/`) with its modules compiled beside them."""
    return lambda_.Code.from_asset(
        str(source),
        exclude=["pyproject.toml", "build", *(f"**/{pattern}" for pattern in _SKIPPED)],
        bundling=BundlingOptions(
            image=DockerImage.from_registry("unused-local-bundling"), local=_CompiledCopy(source)
        ),
    )
