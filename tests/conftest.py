"""Test tiers follow the folders: unit (no network), functional (moto), integration (DynamoDB Local),
infra (the synthesized template)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.support.synthesis import Synthesized

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
TESTS = Path(__file__).resolve().parent
# Apps and data the tests deploy, not tests: --doctest-modules must not import their Lambda code.
collect_ignore = ["fixtures"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.fspath))
        if not path.is_relative_to(TESTS):
            continue  # a doctest of the code itself (pure, no network)
        tier = path.relative_to(TESTS).parts[0]
        if tier in ("integration", "infra"):
            item.add_marker(getattr(pytest.mark, tier))


@pytest.fixture(scope="session")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> Synthesized:
    """The app synthesized once per session (about 5 s), for the template tests of every folder (the
    infra tier's, and the layout test that every resolver route is a method of the API)."""
    from tests.support.synthesis import synthesize  # CDK loads only for the tests that ask for it

    return synthesize(tmp_path_factory.mktemp("cdk") / "cdk.out")
