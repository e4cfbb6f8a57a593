"""The deploy checks of `tatami doctor`, each over the cloud assembly, each returning findings.

Functions: every module the handler loads imports only what the asset, the layers, the Lambda
runtime (boto3) or the standard library of the runtime's Python provide; every environment
variable the handler's code needs is set. Grants (`grants.py`) and streams (`streams.py`) have
modules of their own.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tatami.doctor.code import Module, closure, module_file
from tatami.local.functions.sandbox.runtime import (
    PUBLIC_LAYERS,
    RUNTIME_DISTRIBUTIONS,
    top_level,
    wheel_distributions,
)
from tatami.local.functions.sandbox.runtime import closure as distributions
from tatami.local.template.assembly import Assembly, FunctionSpec

# Modules Python removed in 3.12 and 3.13: absent from the runtime's standard library (and from this
# venv's, which runs the runtime's minor version), named so the finding says why.
REMOVED_BY_3_14 = frozenset(
    [
        "asynchat",
        "asyncore",
        "distutils",
        "imp",
        "smtpd",
        "aifc",
        "audioop",
        "cgi",
        "cgitb",
        "chunk",
        "crypt",
        "imghdr",
        "mailcap",
        "msilib",
        "nis",
        "nntplib",
        "ossaudiodev",
        "pipes",
        "sndhdr",
        "spwd",
        "sunau",
        "telnetlib",
        "uu",
        "xdrlib",
        "lib2to3",
    ]
)


@dataclass(frozen=True, order=True)
class Finding:
    check: str
    subject: str
    message: str

    def line(self) -> str:
        return f"{self.check:<8} {self.subject}: {self.message}"


@cache
def _provided(names: tuple[str, ...], extras: tuple[str, ...] = ()) -> frozenset[str]:
    return frozenset(
        n.removesuffix(".py") for d in distributions(names, extras).values() for n in top_level(d)
    )


def check_imports(assembly: Assembly) -> list[Finding]:
    """Every import of every module a function's handler loads (its import closure: what Lambda runs at
    init and on invocations) resolves inside what Lambda gives it. Modules the asset ships but the
    handler never imports cannot fail it (a shared package may serve functions with other layers)."""
    runtime = _provided(RUNTIME_DISTRIBUTIONS)
    stdlib = frozenset(sys.stdlib_module_names) - REMOVED_BY_3_14
    findings = []
    for function_id, spec in assembly.functions.items():
        roots = source_roots(spec)
        provided = runtime | _public_layers(spec)
        for module in handler_modules(spec):
            root = next(r for r in roots if module.path.is_relative_to(r))
            for name, line in module.imports:
                top = name.split(".")[0]
                if top in stdlib or top in provided or module_file(top, roots) is not None:
                    continue
                where = f"{module.path.relative_to(root)}:{line}"
                why = (
                    "removed from Python by 3.14"
                    if top in REMOVED_BY_3_14
                    else "in neither its asset nor its layers"
                )
                findings.append(Finding("import", function_id, f"{where} imports {name!r}, {why}"))
    return findings


def _public_layers(spec: FunctionSpec) -> frozenset[str]:
    """What the function's public layers and layers built from wheels provide (packages, not source
    this check walks)."""
    names = frozenset(
        n.removesuffix(".py")
        for layer in spec.layer_dirs
        for d in wheel_distributions(layer)
        for n in top_level(d)
    )
    for layer in spec.external_layers:
        for fragment, (distribution, extras) in PUBLIC_LAYERS.items():
            if fragment in str(layer):
                names |= _provided((distribution,), extras)
    return names


def source_roots(spec: FunctionSpec) -> list[Path]:
    """The asset and its layers of source (the zorder layer), whose modules the checks read."""
    return [spec.code_dir, *(layer / "python" for layer in spec.layer_dirs if not wheel_distributions(layer))]


def handler_modules(spec: FunctionSpec) -> list[Module]:
    return closure(spec.handler.rpartition(".")[0], source_roots(spec))


def check_environment(assembly: Assembly) -> list[Finding]:
    """Every variable the handler's code reads without a default is set by the template.

    Functions built from one handler module split its routes or entry points among themselves
    (the counters' read and write functions): a variable one of them sets belongs to its part, so
    it is not required of the others.
    """
    findings = []
    for function_id, spec in assembly.functions.items():
        modules = handler_modules(spec)
        constants = {k: v for m in modules for k, v in m.env_constants.items()}
        optional = {constants.get(name, name) for m in modules for name in m.env_optional}
        needed = {constants.get(name, name) for m in modules for name in m.env_literals}
        siblings = {
            variable
            for other in assembly.functions.values()
            if other.handler.rpartition(".")[0] == spec.handler.rpartition(".")[0]
            for variable in other.environment
        }
        for variable in sorted(needed - optional - siblings):
            findings.append(
                Finding("env", function_id, f"its code reads {variable}, which the template does not set")
            )
    return findings
