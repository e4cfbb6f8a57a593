"""Pure Python assets shipped with their bytecode, compiled at synthesis by the runtime's Python.

Lambda's /opt and /var/task are read-only, so sources alone are compiled again at every cold start:
the zorder layer's engine is about 90 ms of CPU of the search functions' init that way, a function's
own modules 10-20 ms (bench/cold_start.py). The venv runs the runtime's minor version
(infra/constants.py), so the bytecode synthesis writes is the bytecode Lambda loads. It is checked
against nothing (an asset never changes under its bytecode), and the asset is known by its sources,
not its bytes (marshal's output varies between runs): by a hash of the files it ships, their paths
and contents, and of the bytecode's format (`bytecode_format`: the interpreter's cache tag and magic
number), so a change to a file it does not ship changes nothing and another Python changes the asset.

A source that does not compile stops synthesis with `SourceSyntaxError`, naming the file and line
(CDK would otherwise take the failed local bundling for a cue to bundle in Docker).
"""

from __future__ import annotations

import hashlib
import importlib.util
import py_compile
import shutil
import sys
from collections.abc import Mapping, Sequence
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import jsii
from aws_cdk import AssetHashType, BundlingOptions, DockerImage, ILocalBundling
from aws_cdk import aws_lambda as lambda_

BUILD_LITTER = ("__pycache__", "*.pyc", "*.egg-info", ".mypy_cache")


class SourceSyntaxError(ValueError):
    """A source an asset ships does not compile: the message names the file, the line and the reason."""

    @classmethod
    def of(cls, error: SyntaxError) -> SourceSyntaxError:
        """`error` in one line.

        >>> str(SourceSyntaxError.of(SyntaxError("invalid syntax", ("/src/a/b.py", 3, 9, "def f(:\\n"))))
        '/src/a/b.py, line 3: invalid syntax: def f(:'
        """
        text = (error.text or "").strip()
        return cls(f"{error.filename}, line {error.lineno}: {error.msg}" + (f": {text}" if text else ""))


def bytecode_format() -> str:
    """What the bytecode this interpreter writes depends on besides the sources: its cache tag (the
    minor version) and magic number (which also moves between a version's pre-releases).

    >>> bytecode_format().startswith(sys.implementation.cache_tag)
    True
    """
    return f"{sys.implementation.cache_tag} {importlib.util.MAGIC_NUMBER.hex()}"


@jsii.implements(ILocalBundling)
class _CompiledCopy:
    """CDK's local bundling: copy some files and folders of `source`, write the files generated at
    synthesis, and compile them (no Docker)."""

    def __init__(self, source: Path, paths: Sequence[str], generated: Mapping[str, bytes]) -> None:
        self.source = source
        self.paths = tuple(paths)
        self.generated = dict(generated)

    def try_bundle(self, output_dir: str, *_args: Any, **_options: Any) -> bool:
        output = Path(output_dir)
        for relative in self.paths:
            origin, target = self.source / relative, output / relative
            if origin.is_dir():
                ignore = shutil.ignore_patterns(*BUILD_LITTER)
                shutil.copytree(origin, target, ignore=ignore, dirs_exist_ok=True)  # paths may overlap
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, target)
        for relative, content in self.generated.items():
            (output / relative).parent.mkdir(parents=True, exist_ok=True)
            (output / relative).write_bytes(content)
        for module in sorted(output.rglob("*.py")):
            _compile(module, output, self.source)
        return True


def _compile(module: Path, output: Path, source: Path) -> None:
    """Write `module`'s bytecode beside it; a syntax error names the file where its source is."""
    try:
        py_compile.compile(
            str(module), doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
        )
    except py_compile.PyCompileError as exc:
        error = exc.exc_value
        if not isinstance(error, SyntaxError):
            raise
        error.filename = str(source / module.relative_to(output))  # not the copy's
        raise SourceSyntaxError.of(error) from None


def compiled_code(
    source: Path, paths: Sequence[str], generated: Mapping[str, bytes] | None = None
) -> lambda_.Code:
    """The asset of `paths` (files and folders relative to `source`) and of the files `generated` at
    synthesis (path in the asset -> bytes), with their modules compiled beside them, known by the hash
    of those sources."""
    generated = generated or {}
    return lambda_.Code.from_asset(
        str(source),
        asset_hash_type=AssetHashType.CUSTOM,
        asset_hash=sources_hash(source, paths, bytecode_format(), generated),
        bundling=BundlingOptions(
            image=DockerImage.from_registry("unused-local-bundling"),
            local=_CompiledCopy(source, paths, generated),
        ),
    )


def sources_hash(
    source: Path, paths: Sequence[str], bytecode: str, generated: Mapping[str, bytes] | None = None
) -> str:
    """SHA-256 over the bytecode's format (`bytecode_format`), the path and bytes of every file
    `paths` ship (build litter left out) and of every file `generated`."""
    digest = hashlib.sha256(bytecode.encode() + b"\0")
    for relative, content in sorted((generated or {}).items()):
        digest.update(b"generated\0" + relative.encode() + b"\0" + content + b"\0")
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
