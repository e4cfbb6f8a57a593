"""Pure Python assets shipped with their bytecode, compiled at synthesis by the runtime's Python.

Lambda's /opt and /var/task are read-only, so sources alone are compiled again at every cold start:
the zorder layer's engine is about 90 ms of CPU of the search functions' init that way, a function's
own modules 10-20 ms (bench/cold_start.py). The venv runs the runtime's minor version
(infra/constants.py), so the bytecode synthesis writes is the bytecode Lambda loads. It is checked
against nothing (an asset never changes under its bytecode), and the asset is known by its sources,
not its bytes (marshal's output varies between runs): by a hash of the files it ships, their paths
and contents, so a change to a file it does not ship changes nothing.
"""

from __future__ import annotations

import compileall
import hashlib
import py_compile
import shutil
from collections.abc import Sequence
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import jsii
from aws_cdk import AssetHashType, BundlingOptions, DockerImage, ILocalBundling
from aws_cdk import aws_lambda as lambda_

BUILD_LITTER = ("__pycache__", "*.pyc", "*.egg-info", ".mypy_cache")


@jsii.implements(ILocalBundling)
class _CompiledCopy:
    """CDK's local bundling: copy some files and folders of `source` and compile them (no Docker)."""

    def __init__(self, source: Path, paths: Sequence[str]) -> None:
        self.source = source
        self.paths = tuple(paths)

    def try_bundle(self, output_dir: str, *_args: Any, **_options: Any) -> bool:
        for relative in self.paths:
            origin, target = self.source / relative, Path(output_dir) / relative
            if origin.is_dir():
                ignore = shutil.ignore_patterns(*BUILD_LITTER)
                shutil.copytree(origin, target, ignore=ignore, dirs_exist_ok=True)  # paths may overlap
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, target)
        unchecked = py_compile.PycInvalidationMode.UNCHECKED_HASH
        return compileall.compile_dir(output_dir, quiet=1, invalidation_mode=unchecked)


def compiled_code(source: Path, paths: Sequence[str]) -> lambda_.Code:
    """The asset of `paths` (files and folders relative to `source`) with their modules compiled beside
    them, known by the hash of those sources."""
    return lambda_.Code.from_asset(
        str(source),
        asset_hash_type=AssetHashType.CUSTOM,
        asset_hash=sources_hash(source, paths),
        bundling=BundlingOptions(
            image=DockerImage.from_registry("unused-local-bundling"), local=_CompiledCopy(source, paths)
        ),
    )


def sources_hash(source: Path, paths: Sequence[str]) -> str:
    """SHA-256 over the path and bytes of every file `paths` ship (build litter left out)."""
    digest = hashlib.sha256()
    for relative in sorted(set(paths)):
        origin = source / relative
        files = sorted(origin.rglob("*")) if origin.is_dir() else [origin]
        for file in files:
            parts = file.relative_to(source).parts
            if file.is_file() and not any(fnmatch(part, litter) for part in parts for litter in BUILD_LITTER):
                digest.update("/".join(parts).encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()


def compiled_layer_code(source: Path) -> lambda_.Code:
    """The asset of a layer folder (its `python/`) with its modules compiled beside them."""
    return compiled_code(source, ["python"])
