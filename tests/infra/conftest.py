"""A second synthesis for the cross-stage tests (the app's own, `synthesized`, is tests/conftest.py's)."""

from __future__ import annotations

import pytest

from tests.support.synthesis import Synthesized, operated_stage_context, synthesize


@pytest.fixture(scope="session")
def operated(tmp_path_factory: pytest.TempPathFactory) -> Synthesized:
    """A second stage, `prod`, one someone operates (an alarm destination, a runbook URL): the
    cross-stage tests compare it with the stage-less app."""
    return synthesize(tmp_path_factory.mktemp("cdk-prod") / "cdk.out", operated_stage_context())
