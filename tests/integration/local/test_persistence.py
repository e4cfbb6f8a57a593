"""`tatami local --db-path`: data survives a restart; a table of another shape is refused, not dropped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import requests

from tatami.local.cloud import LocalCloud, LocalCloudConfig, free_ports
from tatami.local.engines import processes as engines
from tatami.local.engines import provision
from tatami.local.template.assembly import Assembly, TableSpec
from tatami.local.template.intrinsics import Resolver
from tests.integration.conftest import PROBE_APP


@pytest.mark.slow
def test_a_persistent_database_survives_a_restart(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(PROBE_APP), str(tmp_path / "cdk.out")], check=True, capture_output=True
    )

    def config() -> LocalCloudConfig:
        return LocalCloudConfig(
            cdk_out=tmp_path / "cdk.out",
            **free_ports(),
            work_dir=tmp_path / "work",
            db_path=tmp_path / "db",
            echo_logs=False,
            warm_functions=False,
        )

    (tmp_path / "db").mkdir()
    with LocalCloud(config()) as cloud:
        assert requests.put(f"{cloud.api_url}/notes/kept", json={"text": "still here"}, timeout=10).ok
    with LocalCloud(config()) as cloud:
        assert cloud.tables.reused  # kept, not recreated
        assert requests.get(f"{cloud.api_url}/notes/kept", timeout=10).json() == {
            "id": "kept",
            "text": "still here",
        }


def test_a_kept_table_of_another_shape_is_refused(dynamodb_local: str) -> None:
    client = engines.dynamodb_client(dynamodb_local)
    client.create_table(
        TableName="Shape-T",
        BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "other", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "other", "AttributeType": "S"}],
    )
    spec = TableSpec(
        "T",
        "Shape-T",
        {
            "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
        },
    )
    with pytest.raises(provision.ProvisionError, match=r"Shape-T .* other keys"):
        provision.create_tables(client, Assembly(stacks=[], tables=[spec]), Resolver("Shape"))
    assert client.describe_table(TableName="Shape-T")["Table"]["KeySchema"][0]["AttributeName"] == "other"
