"""What the Lambda runtime and the layers provide, as folders a worker's import path can hold.

The Python runtime of Lambda ships boto3 and botocore (with their dependencies); a public layer
such as Powertools ships its package and its extras' dependencies, and so does a layer built from
wheels (it holds their `*.dist-info`: the app's Powertools layer, for Lambda's arm64). Locally all
of them come from this virtualenv, which runs the runtime's Python minor version: each is a folder of
symbolic links to the installed top-level packages of exactly those distributions, built once per
local cloud under its work folder (a wheel layer's binaries are for another platform; the versions
are the same, which synthesis checks). Nothing else of the virtualenv (moto, click, the CLI, the
project's own source) is on a worker's path.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib.metadata import Distribution, PackageNotFoundError, PathDistribution, distribution
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

RUNTIME_DISTRIBUTIONS = ("boto3",)  # what the Python runtime of Lambda provides beyond the stdlib
# Public layers the local cloud provides, by a fragment of their ARN: (distribution, extras).
PUBLIC_LAYERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "AWSLambdaPowertoolsPython": ("aws-lambda-powertools", ("all",)),
}
_NAME = re.compile(r"[-_.]+")


def _normal(name: str) -> str:
    return _NAME.sub("-", name).lower()


def closure(names: Iterable[str], extras: Sequence[str] = ()) -> dict[str, Any]:
    """The installed distributions `names` need (with `extras` for the first level), by normal name.

    A requirement that is not installed here is skipped: a layer's optional extras (Kafka, Redis...)
    are not part of this project, and an import of one fails locally as it would without the layer.
    """
    found: dict[str, Any] = {}
    pending = [(name, tuple(extras)) for name in names]
    while pending:
        name, wanted = pending.pop()
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            continue
        key = _normal(dist.metadata["Name"])
        if key in found and not wanted:
            continue
        found[key] = dist
        for text in dist.requires or []:
            requirement = Requirement(text)
            environments = [{"extra": extra} for extra in wanted] or [{"extra": ""}]
            wanted_here = requirement.marker is None or any(
                requirement.marker.evaluate(e) for e in environments
            )
            if wanted_here and _normal(requirement.name) not in found:
                pending.append((requirement.name, ()))
    return found


def top_level(dist: Any) -> set[str]:
    """The importable top-level names a distribution installed (packages, modules, extensions)."""
    names = set()
    for file in dist.files or []:
        first = file.parts[0]
        if first.endswith((".dist-info", ".egg-info", ".pth")) or first in ("..", "__pycache__", "bin"):
            continue
        if len(file.parts) == 1 and not first.endswith((".py", ".so", ".pyd")):
            continue
        names.add(first)
    return names


def link_folder(target: Path, distributions: Iterable[Any]) -> Path:
    """`target` holding a symbolic link to every top-level package of `distributions` (rebuilt).

    A single-file module's bytecode is linked too: Python looks for it in the `__pycache__` beside
    the link, and Lambda's runtime and layers ship theirs compiled (without it, each worker would
    compile typing_extensions and six at start).
    """
    if target.exists():
        shutil.rmtree(target)
    (target / "__pycache__").mkdir(parents=True)
    for dist in distributions:
        location = Path(str(dist.locate_file("")))
        for name in top_level(dist):
            source = location / name
            if source.exists() and not (target / name).exists():
                (target / name).symlink_to(source)
            for bytecode in (location / "__pycache__").glob(f"{name.removesuffix('.py')}.*.pyc"):
                if name.endswith(".py") and not (target / "__pycache__" / bytecode.name).exists():
                    (target / "__pycache__" / bytecode.name).symlink_to(bytecode)
    return target


def wheel_distributions(layer_dir: Path) -> list[Distribution]:
    """The distributions a layer built from wheels holds (its `python/*.dist-info`); [] for a layer
    of source (the zorder layer)."""
    return [PathDistribution(info) for info in sorted((layer_dir / "python").glob("*.dist-info"))]


@dataclass(frozen=True)
class Runtime:
    """The folders of the runtime (boto3 and its dependencies), of each public layer emulated, and of
    each layer built from wheels (by the layer's asset folder)."""

    runtime_dir: Path
    layer_dirs: dict[str, Path]
    wheel_layers: dict[Path, Path]

    @classmethod
    def build(cls, work_dir: Path, layers: Iterable[Path] = ()) -> Runtime:
        """Link the runtime, the public layers and the wheel layers among `layers` (asset folders)."""
        base = closure(RUNTIME_DISTRIBUTIONS)
        folder = work_dir / "runtime"
        runtime_dir = link_folder(folder / "lambda-runtime", base.values())
        public = {}
        for fragment, (name, extras) in PUBLIC_LAYERS.items():
            needed = {k: d for k, d in closure([name], extras).items() if k not in base}
            public[fragment] = link_folder(folder / "layers" / fragment / "python", needed.values())
        wheels = {}
        for layer in sorted(set(layers)):
            held = [distribution(d.metadata["Name"]) for d in wheel_distributions(layer)]
            if held:
                wheels[layer] = link_folder(folder / "wheel-layers" / layer.name / "python", held)
        return cls(runtime_dir, public, wheels)

    def public_layer_dir(self, layer: Any) -> Path | None:
        """The local folder of an external layer (a template value naming its ARN), if emulated."""
        text = json.dumps(layer)
        return next((path for fragment, path in self.layer_dirs.items() if fragment in text), None)

    def import_path(self, code_dir: Path, layers: Sequence[Path], external: Sequence[Any] = ()) -> list[str]:
        """A worker's `sys.path` as Lambda orders it: the asset, its layers, the runtime's packages."""
        public = [self.public_layer_dir(layer) for layer in external]
        return [
            str(code_dir),
            *(str(self.wheel_layers.get(layer) or layer / "python") for layer in layers),
            *(str(folder) for folder in public if folder is not None),
            str(self.runtime_dir),
        ]
