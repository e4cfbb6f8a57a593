"""DynamoDB Local stopped and started again under `--db-path` while the local cloud runs (the probe app:
a route and two stream consumers).

Invariant: every item written before the restart is still there; after it, routes and stream
consumers work again without restarting the cloud, and each write's stream record is processed
exactly once.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import requests

from tatami.local import engines
from tatami.local.cloud import LocalCloud, LocalCloudConfig
from tests.integration.conftest import PROBE_APP
from tests.integration.local.test_probe_app import seen
from tests.support.waiting import eventually


def _write_and_see(cloud: LocalCloud, key: str) -> None:
    response = requests.put(f"{cloud.api_url}/notes/{key}", json={"text": key}, timeout=30)
    assert response.status_code == 200, response.text
    record = eventually(lambda: seen(cloud, f"partial#{key}#INSERT"), timeout=30)
    assert record and record["deliveries"] == {"N": "1"}, record


def test_data_survives_a_dynamodb_restart_and_workers_reconnect(tmp_path: Path) -> None:
    """Invariant: notes before the restart kept; notes after it stored and streamed, each once."""
    subprocess.run(
        [sys.executable, str(PROBE_APP), str(tmp_path / "cdk.out")], check=True, capture_output=True
    )
    (tmp_path / "db").mkdir()
    config = LocalCloudConfig(
        cdk_out=tmp_path / "cdk.out",
        api_port=engines.free_port(),
        dynamodb_port=engines.free_port(),
        moto_port=engines.free_port(),
        work_dir=tmp_path / "work",
        db_path=tmp_path / "db",
        echo_logs=False,
        poll_interval=0.05,
    )
    with LocalCloud(config) as cloud:
        _write_and_see(cloud, "before")
        (dynamodb,) = [engine for engine in cloud.engines if engine.name == "DynamoDB Local"]
        dynamodb.stop()
        assert requests.put(f"{cloud.api_url}/notes/down", json={}, timeout=30).status_code >= 500
        log = config.work_dir / "logs" / "dynamodb-local.log"
        restarted = engines.start_dynamodb_local(config.dynamodb_port, log, config.db_path)
        cloud.engines[cloud.engines.index(dynamodb)] = restarted
        kept = requests.get(f"{cloud.api_url}/notes/before", timeout=30)
        assert kept.json() == {"id": "before", "text": "before"}
        _write_and_see(cloud, "after")
        assert seen(cloud, "partial#before#INSERT")["deliveries"] == {"N": "1"}
