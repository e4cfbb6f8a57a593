"""`tatami load-ip` and `tatami export` SIGKILLed in the middle of their writes (a crash plan in the CLI's
own process; the load also throttled on a tenth of its batch writes), then run again.

Invariants: load-ip: the live version holds every planned item exactly once, per partition, and no
other version is left; export: the newest complete export holds every item of the table exactly
once, and the killed export is never read (it has no summary).
"""

from __future__ import annotations

import base64
import dataclasses
import gzip
import json
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tatami.commands.export import settings_of
from tatami.ip_loader.load import prepare
from tatami.ip_loader.store import RangesStore
from tatami.local.cloud import LocalCloud
from tatami.local.engines.faults import FAULTS_ENV, FaultPlan
from tatami.olap.exports import fetch, latest_summary
from tatami.samples.ip_lookup import DATA
from tatami.target import cloud_target
from tatami_functions import stack_outputs
from tatami_functions.ip_lookup.keys import partition_key
from tatami_functions.olap.settings import ExportSettings

RUNNER = Path(__file__).with_name("cli_under_faults.py")
EXPORTED, EXPORTED_TABLE = 1000, "ip_ranges"  # a table no stream consumer reads
REPO = Path(__file__).resolve().parents[3]


def _run(cloud: LocalCloud, plan: FaultPlan, *args: str) -> subprocess.CompletedProcess[str]:
    where = {"outputs": cloud.outputs, "dynamodb": cloud.dynamodb_endpoint, "moto": cloud.moto_endpoint}
    return subprocess.run(
        [sys.executable, str(RUNNER), json.dumps(where), *args],
        cwd=REPO,
        env={**_environment(), FAULTS_ENV: plan.to_json()},
        capture_output=True,
        text=True,
        timeout=300,
    )


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "lambdas")])}


def _scan(cloud: LocalCloud, table: str) -> list[dict[str, Any]]:
    client, items, request = cloud.client("dynamodb"), [], {"TableName": table, "ConsistentRead": True}
    while True:
        page = client.scan(**request)
        items += page["Items"]
        if "LastEvaluatedKey" not in page:
            return items
        request["ExclusiveStartKey"] = page["LastEvaluatedKey"]


@pytest.mark.long
def test_a_killed_load_resumes_and_every_item_lands_exactly_once(
    faulty_cloud: LocalCloud, tmp_path: Path
) -> None:
    """Invariant: per partition, items of the live version == the plan; no other version left."""
    ranges = tmp_path / "ranges.csv"  # the sample's first 1,500 ranges: 4 chunks
    ranges.write_text("".join(DATA.read_text().splitlines(keepends=True)[:1501]))
    throttled = FaultPlan(rate=0.1, operations=("dynamodb.BatchWriteItem",), seed=5)
    load = ("load-ip", "--local", "--workers", "2", "--no-progress", str(ranges))
    killed = _run(faulty_cloud, dataclasses.replace(throttled, crash_after=30), *load)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    resumed = _run(faulty_cloud, FaultPlan(), *load)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert "resuming v1:" in resumed.stdout + resumed.stderr
    assert "tatami faults: injected" in killed.stderr  # throttled, and retried
    table = faulty_cloud.outputs[stack_outputs.OUTPUT_IP_RANGES_TABLE]
    store = RangesStore(faulty_cloud.client("dynamodb"), table)
    live = store.pointer()
    assert live is not None and live.version == 1
    plan = prepare([ranges]).plan
    for prefix, expected in plan.per_partition.items():
        assert store.count(partition_key(1, prefix)) == expected, prefix
    keys = Counter((item["pk"]["S"], item["sk"]["B"]) for item in _scan(faulty_cloud, table) if "sk" in item)
    assert max(keys.values()) == 1


def test_a_killed_export_is_invisible_and_the_rerun_has_every_item_once(
    faulty_cloud: LocalCloud, tmp_path: Path
) -> None:
    """Invariant: newest complete export == the table, item for item, each once."""
    settings: ExportSettings = settings_of(cloud_target(faulty_cloud)).select((EXPORTED_TABLE,))
    table = settings.tables[EXPORTED_TABLE].rsplit("/", 1)[-1]
    client = faulty_cloud.client("dynamodb")
    for batch in range(0, EXPORTED, 25):  # items of a dataset version no alias points at
        rows = [{"pk": {"S": f"exported#{n}"}, "sk": {"B": n.to_bytes(4)}} for n in range(batch, batch + 25)]
        client.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": row}} for row in rows]})
    items = _scan(faulty_cloud, table)
    assert len(items) >= EXPORTED
    crash = FaultPlan(operations=("dynamodb.Scan",), crash_after=1)
    killed = _run(faulty_cloud, crash, "export", "--local", "--table", EXPORTED_TABLE, "--segments", "4")
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    s3, prefix = faulty_cloud.client("s3"), settings.s3_prefix(EXPORTED_TABLE)
    before = latest_summary(s3, settings.bucket, prefix)
    rerun = _run(faulty_cloud, FaultPlan(), "export", "--local", "--table", EXPORTED_TABLE, "--no-progress")
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    summary = latest_summary(s3, settings.bucket, prefix)
    assert summary is not None and summary != before
    exported = fetch(s3, settings.bucket, EXPORTED_TABLE, summary, tmp_path)
    lines = []
    for path in exported.paths:
        with gzip.open(path, "rt") as data:
            lines += [json.loads(line) for line in data]
    exported_keys = Counter(_key(line["Item"]) for line in lines)
    assert max(exported_keys.values()) == 1
    assert set(exported_keys) == {_key(item) for item in items} and exported.item_count == len(items)


def _key(item: dict[str, Any]) -> tuple[str, str]:
    """(pk, sk) of a scanned item (sk as bytes) or an exported one (sk as base64)."""
    sk = item.get("sk", {}).get("B", b"")
    return item["pk"]["S"], sk if isinstance(sk, str) else base64.b64encode(sk).decode()
