"""Each function's asset holds only what its handler reaches: the modules of `tatami_functions` its
handler's module imports, transitively, and the data folders beside them; no other service's code,
no module of `common` it never loads, no CLI or local-cloud helper (stack outputs, the parallel scan,
a local export).

Checked on the synthesized assets in cdk.out, against a closure computed here over each asset alone:
nothing in the asset that the handler does not import, and nothing the handler imports missing.
"""

from __future__ import annotations

import json
import modulefinder
from pathlib import Path
from typing import Any

import pytest

from infra.constructs.resolver_routes import openapi_document
from tatami_functions.docs.api import DOCUMENT_IN_ASSET
from tests.support.synthesis import Synthesized

PACKAGE = "tatami_functions"
DOCS_HANDLER = "tatami_functions.docs.handler"


def _functions(synthesized: Synthesized) -> dict[str, tuple[str, Path]]:
    """Logical id -> (handler module, asset folder) of every function of the template."""
    found = {}
    for logical_id, function in synthesized.resources("AWS::Lambda::Function").items():
        properties: dict[str, Any] = function["Properties"]
        key = properties["Code"]["S3Key"].removesuffix(".zip")
        found[logical_id] = (properties["Handler"].rpartition(".")[0], synthesized.cdk_out / f"asset.{key}")
    return found


def _modules(asset: Path) -> set[str]:
    """Every module the asset ships, by dotted name."""
    return {
        ".".join(path.relative_to(asset).with_suffix("").parts).removesuffix(".__init__")
        for path in asset.rglob("*.py")
    }


def _closure(asset: Path, roots: list[str]) -> tuple[set[str], set[str]]:
    """The asset's modules that `roots` import, transitively, and the `tatami_functions` modules
    they import that the asset lacks. modulefinder reads every code object: imports inside
    functions count."""
    finder = modulefinder.ModuleFinder(path=[str(asset)])
    for root in roots:
        finder.import_hook(root)
    shipped = {name for name, module in finder.modules.items() if getattr(module, "__file__", None)}
    missing, _maybe = finder.any_missing_maybe()  # `maybe`: a name imported from a package, not a module
    return shipped, {name for name in missing if name.startswith(f"{PACKAGE}.")}


def test_every_function_ships_only_what_its_handler_imports(synthesized: Synthesized) -> None:
    functions = _functions(synthesized)
    assert len(functions) > 10
    for logical_id, (handler, asset) in functions.items():
        shipped = _modules(asset)
        if not handler.startswith(f"{PACKAGE}."):  # the Z-index maintainer: its handler is its layer's
            assert shipped == {PACKAGE}, logical_id
            continue
        imported, missing = _closure(asset, [handler])
        assert missing == set(), (logical_id, missing)
        assert shipped - imported == set(), (logical_id, sorted(shipped - imported))


def test_no_function_ships_stack_outputs_a_scan_or_a_local_export(synthesized: Synthesized) -> None:
    for logical_id, (_, asset) in _functions(synthesized).items():
        names = {path.name for path in asset.rglob("*.py")}
        assert not names & {"stack_outputs.py", "scan.py", "local_export.py"}, logical_id


@pytest.mark.parametrize(
    ("handler", "needs", "lacks"),
    [
        ("tatami_functions.olap.handler", "olap/exports.py", "common/api.py"),  # no routes: no resolver
        ("tatami_functions.counters.handler", "counters/api.py", "olap/handler.py"),
    ],
)
def test_a_function_holds_its_own_modules_and_not_its_neighbours(
    synthesized: Synthesized, handler: str, needs: str, lacks: str
) -> None:
    (asset,) = {asset for module, asset in _functions(synthesized).values() if module == handler}
    assert (asset / PACKAGE / needs).is_file()
    assert not (asset / PACKAGE / lacks).exists()


def test_the_docs_function_ships_the_generated_document_and_no_service(synthesized: Synthesized) -> None:
    (asset,) = {asset for module, asset in _functions(synthesized).values() if module == DOCS_HANDLER}
    assert json.loads((asset / DOCUMENT_IN_ASSET).read_text()) == json.loads(json.dumps(openapi_document()))
    shipped = {path.relative_to(asset / PACKAGE).parts[0] for path in (asset / PACKAGE).rglob("*.py")}
    assert shipped <= {"__init__.py", "common", "docs"}, shipped
