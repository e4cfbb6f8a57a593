"""The local cloud's own suites: the probe app's cloud, started once for the package and stopped after it
(an idle cloud's stream pollers and DynamoDB Local cost a fifth of a core or more until it stops)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from tatami.local.cloud import LocalCloud
from tests.integration.conftest import PROBE_APP, start_cloud


@pytest.fixture(scope="package")
def probe_cloud(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    """The probe app (tests/fixtures/probe_app) on its own local cloud."""
    root = tmp_path_factory.mktemp("probe")
    subprocess.run([sys.executable, str(PROBE_APP), str(root / "cdk.out")], check=True, capture_output=True)
    cloud = start_cloud(root / "cdk.out", root / "work")
    yield cloud
    cloud.stop()
