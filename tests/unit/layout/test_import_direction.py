"""The import direction: pyproject.toml's import-linter contracts hold, and cover every package.

zorder (pure core) <- zindex (the engine) <- tatami_functions.common (what every function shares)
<- the services (tatami_functions' other subpackages) <- infra <- the CLI; no two siblings import each
other, at any depth.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from importlinter import api
from importlinter.application import use_cases

ROOT = Path(__file__).resolve().parents[3]
PYPROJECT = str(ROOT / "pyproject.toml")
FUNCTIONS = ROOT / "lambdas" / "tatami_functions"
SERVICES = {f"tatami_functions.{path.parent.name}" for path in FUNCTIONS.glob("*/__init__.py")} - {
    "tatami_functions.common"
}


@pytest.fixture(scope="module")
def contracts() -> dict[str, dict]:
    configuration = api.read_configuration(PYPROJECT)
    return {contract["id"]: contract for contract in configuration["contracts_options"]}


def test_the_contracts_hold(capsys: pytest.CaptureFixture[str]) -> None:
    kept = use_cases.lint_imports(config_filename=PYPROJECT, cache_dir=None, no_logo=True)
    assert kept, capsys.readouterr().out  # the report names each backward import and cycle


def test_every_package_is_under_contract(contracts: dict[str, dict]) -> None:
    roots = set(api.read_configuration(PYPROJECT)["session_options"]["root_packages"])
    assert roots == {"zorder", "zindex", "tatami_functions", "infra", "tatami"}
    # lambdas/ holds one package, so every function's code is under contract
    assert [path.parent.name for path in (ROOT / "lambdas").glob("*/__init__.py")] == ["tatami_functions"]
    assert set(contracts["acyclic"]["ancestors"]) == roots


def test_the_layers_run_from_the_cli_down_to_the_pure_core(contracts: dict[str, dict]) -> None:
    layers = [layer.split("#")[0].strip() for layer in contracts["layers"]["layers"]]
    services = {name.strip() for name in layers[2].split("|")}  # "|": siblings that never import each other
    assert [layers[0], layers[1], *layers[3:]] == [
        "tatami",
        "infra",
        "tatami_functions.common",
        "zindex",
        "zorder",
    ]
    assert services == SERVICES
