"""The samples follow the services: each module of `tatami/samples/` is one service's sample, named as
the service's package in `lambdas/tatami_functions/`, and the catalog lists each one by that name."""

from __future__ import annotations

from pathlib import Path

from tatami.samples.catalog import SAMPLES

ROOT = Path(__file__).resolve().parents[3]
FUNCTIONS = ROOT / "lambdas" / "tatami_functions"
SAMPLE_MODULES = ROOT / "tatami" / "samples"
SERVICES = frozenset(p.name for p in FUNCTIONS.iterdir() if (p / "__init__.py").exists()) - {"common"}
# What the samples share, not a service's sample: the Sample type, the registry, the ways they write.
SHARED = frozenset({"__init__", "catalog", "writing"})


def sample_modules() -> set[str]:
    return {p.stem for p in SAMPLE_MODULES.glob("*.py")} - SHARED


def test_each_sample_module_is_named_for_a_service() -> None:
    strays = sorted(sample_modules() - SERVICES)
    assert strays == [], "name a sample module for its service's package, or list it in SHARED"


def test_the_catalog_lists_every_sample_module_by_its_service() -> None:
    assert set(SAMPLES) == sample_modules()
    assert all(name == sample.name for name, sample in SAMPLES.items())
    assert all(sample.load.__module__ == f"tatami.samples.{name}" for name, sample in SAMPLES.items())


def test_no_subpackage_hides_a_sample() -> None:
    assert [p.name for p in SAMPLE_MODULES.iterdir() if (p / "__init__.py").exists()] == []
