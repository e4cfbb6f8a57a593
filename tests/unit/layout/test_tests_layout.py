"""The tests follow the services: a service's tests live in `tests/<tier>/<service>/`, named as the
service package in `lambdas/tatami_functions/`; every other folder under a tier is a declared
cross-service suite, named for what it tests; no folder is named for the seed family a service came from."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TESTS = ROOT / "tests"
FUNCTIONS = ROOT / "lambdas" / "tatami_functions"
SERVICES = frozenset(
    p.name for p in FUNCTIONS.iterdir() if (p / "__init__.py").exists() and p.name != "common"
)
TIERS = ("unit", "functional", "integration", "infra")
# Suites that test something other than one service, and what.
CROSS_SERVICE = {
    "app": "the whole app on a local cloud: cold starts, limits, every route's answer",
    "bad_input": "a 400 naming the field from each service's resolver, one table of cases per sample",
    "capacity": "tatami.capacity: partitions, hot keys and the capacity model",
    "common": "lambdas/tatami_functions/common, what every function shares",
    "console": "the local cloud's console",
    "designs": "the template against the seeds' designs: a seed's tables, buckets, routes, grants",
    "doctests": "the services' docstring examples",
    "examples": "the example apps of examples/ (another CDK app) on the local cloud",
    "faults": "dependency failures, lost responses and restarts across services",
    "fuzz": "schemathesis over every operation of the OpenAPI document",
    "key_encoding": "keys that sort as they read and text that normalises, across services' paths",
    "layout": "the shape of the tree: services, tests, imports, docs",
    "lifecycle": "starting and stopping the local cloud",
    "local": "the local cloud: IAM, persistence, loopback",
    "tatami": "the tatami CLI and its packages (local cloud, doctor, console, loaders)",
    "zindex": "the Z-order index engine",
    "zorder": "the zorder library",
}
# Names of the seeds the services came from: a folder so named groups tests by origin, not by service.
SEED_FAMILIES = frozenset({"labs", "models", "models_workshop", "workshop", "seeds", "seed"})
NOT_TESTS = frozenset({"__pycache__", "fixtures", "support"})  # tests/fixtures: apps; tests/support: helpers


def folders(tier: str) -> list[Path]:
    return sorted(p for p in (TESTS / tier).iterdir() if p.is_dir() and p.name not in NOT_TESTS)


def test_the_declared_suites_are_not_services() -> None:
    assert sorted(SERVICES & set(CROSS_SERVICE)) == []


@pytest.mark.parametrize("tier", TIERS)
def test_each_folder_under_a_tier_is_a_service_or_a_declared_suite(tier: str) -> None:
    unknown = [p.name for p in folders(tier) if p.name not in SERVICES | set(CROSS_SERVICE)]
    assert unknown == [], f"tests/{tier}: name a folder for its service or declare the suite in CROSS_SERVICE"


def test_no_folder_is_named_for_a_seed_family() -> None:
    named = sorted(
        str(p.relative_to(TESTS))
        for p in TESTS.rglob("*")
        if p.is_dir() and p.name in SEED_FAMILIES and not p.is_relative_to(TESTS / "fixtures")
    )
    assert named == [], "group tests by service (tests/<tier>/<service>/), not by the seed they came from"


def stray(tier: str, tests: Path = TESTS) -> list[str]:
    """Test files named for a service outside its folder, or for a seed family anywhere but a suite."""
    found = []
    for path in sorted((tests / tier).rglob("test_*.py")):
        home = path.relative_to(tests / tier).parts
        if len(home) > 1 and home[0] in CROSS_SERVICE:
            continue  # a cross-service suite names the services it crosses
        if any(path.stem.startswith(f"test_{family}") for family in SEED_FAMILIES):
            found.append(str(path.relative_to(tests)))  # one file for a seed's services: split it
            continue
        named = {s for s in SERVICES if path.stem == f"test_{s}" or path.stem.startswith(f"test_{s}_")}
        if named and (len(home) == 1 or home[0] not in named):
            found.append(str(path.relative_to(tests)))
    return found


@pytest.mark.parametrize("tier", TIERS)
def test_a_services_tests_live_in_its_folder(tier: str) -> None:
    assert stray(tier) == [], f"move them to tests/{tier}/<service>/"


def test_the_check_sees_a_stray_service_test(tmp_path: Path) -> None:
    tier = tmp_path / "unit"
    made = ("orders/test_orders_keys.py", "test_orders_stray.py", "forum/test_carts_here.py", "test_labs.py")
    for relative in made:
        (tier / relative).parent.mkdir(parents=True, exist_ok=True)
        (tier / relative).write_text("")
    (tier / "faults").mkdir()
    (tier / "faults" / "test_orders_under_faults.py").write_text("")
    found = stray("unit", tmp_path)
    assert found == ["unit/forum/test_carts_here.py", "unit/test_labs.py", "unit/test_orders_stray.py"]
