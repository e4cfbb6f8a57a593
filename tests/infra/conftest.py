"""Synthesize the app once per session (about 5 s) for every template test."""

from __future__ import annotations

import pytest

from tests.support.synthesis import Synthesized, synthesize


@pytest.fixture(scope="session")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> Synthesized:
    return synthesize(tmp_path_factory.mktemp("cdk") / "cdk.out")
