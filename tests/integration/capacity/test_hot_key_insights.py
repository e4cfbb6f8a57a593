"""The recorder and `tatami local insights` on the app's own traffic: a deliberately hot key is found.

A counter with one shard (1 WCU, no margin: the seed's formula gives 1) and one with 50 shards get the
same increments through the local API. Every DynamoDB call of the counters' functions is recorded
by the worker's botocore hook; the insights rank the one shard first, and the replay at 50x (about
3,000 increments a second on it) flags it: it throttles on its partition in AWS, while the 50
shards of the other counter do not.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from click.testing import CliRunner

from tatami.capacity.adapters.insights import analyse, describe, flagged_keys
from tatami.capacity.adapters.traffic import read_records, schemas_from
from tatami.capacity.workloads.builders import Setting
from tatami.commands import insights as insights_command
from tatami.local.cloud import LocalCloud
from tests.integration.conftest import start_app_cloud
from tests.support.synthesis import Synthesized

INCREMENTS = 120


@pytest.fixture(scope="module")
def insights_cloud(
    synthesized: Synthesized, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LocalCloud]:
    """The app on a local cloud of this module's own: the insights rank every call the cloud recorded,
    and on the session's shared cloud other suites' loads would outrank this one."""
    cloud = start_app_cloud(synthesized.cdk_out, tmp_path_factory.mktemp("insights"))
    yield cloud
    cloud.stop()


@pytest.fixture(scope="module")
def hot_and_calm(insights_cloud: LocalCloud) -> tuple[str, str]:
    api = insights_cloud.api_url
    names = ("insights-hot", "insights-calm")
    for name, target in zip(names, (1, 50_000), strict=True):
        sizing = {"target_wcu": target, "safety_factor": 1}
        response = requests.put(f"{api}/counters/{name}", json=sizing, timeout=30)
        assert response.status_code in (200, 201), response.text

    def cast(name: str) -> None:
        response = requests.post(f"{api}/counters/{name}/increments", json={"by": 1}, timeout=30)
        assert response.status_code == 200, response.text

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(cast, [name for _ in range(INCREMENTS) for name in names]))
    return names


@pytest.fixture(scope="module")
def scale(insights_cloud: LocalCloud, hot_and_calm: tuple[str, str]) -> int:
    """The replay's scale: about 2,000 increments a second on the hot shard in its busiest second, twice
    what its partition accepts, while the calm counter's partitions, a quarter of its 50 shards each, stay
    near half their limit (at 3,000 a second they reached 97% and flagged now and then). How fast the
    increments arrived depends on the machine's load, so the scale is read from what was recorded."""
    records, _ = read_records(insights_cloud.traffic_dir)
    per_second = Counter(int(r["t"]) for r in records if _is_hot_update(r))
    return math.ceil(2_000 / max(per_second.values()))


def _is_hot_update(record: dict[str, Any]) -> bool:
    return record["op"] == "UpdateItem" and "insights-hot#0" in str(record["req"]["Key"])


def test_every_recorded_call_is_on_disk_with_its_consumed_capacity(
    insights_cloud: LocalCloud, hot_and_calm: tuple[str, str]
) -> None:
    records, unreadable = read_records(insights_cloud.traffic_dir)
    assert unreadable == 0
    updates = [r for r in records if _is_hot_update(r)]
    assert len(updates) == INCREMENTS
    assert all(r["cc"]["CapacityUnits"] == 1.0 for r in updates)  # computed by DynamoDB Local, AWS's rules


def test_the_hot_shard_is_found_and_flagged(insights_cloud: LocalCloud, scale: int) -> None:
    records, _ = read_records(insights_cloud.traffic_dir)
    tables = {
        entry["TableName"]
        for r in records
        for entry in ([r["cc"]] if isinstance(r["cc"], dict) else r["cc"] or [])
    }
    found = analyse(records, schemas_from(insights_cloud.client("dynamodb"), tables), Setting(), scale=scale)
    shards = next(
        space for space, keys in found.stats.items() if any(k.key.startswith("insights-") for k in keys)
    )
    ranked = [entry.key for entry in found.stats[shards] if entry.key.startswith("insights-")]
    assert ranked[0] == "insights-hot#0"
    flags = flagged_keys(found)
    assert (shards, "insights-hot#0") in flags
    assert not any(key.startswith("insights-calm") for _, key in flags)
    print("\n" + describe(found, top=3))


def test_the_command_lists_and_flags_it(
    insights_cloud: LocalCloud, scale: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = {"pid": os.getpid(), "dynamodb_endpoint": insights_cloud.dynamodb_endpoint}
    monkeypatch.setattr(insights_command, "read_state", lambda _work_dir: state)
    monkeypatch.setenv("TATAMI_LOCAL_DIR", str(insights_cloud.config.work_dir))
    result = CliRunner().invoke(
        insights_command.insights, ["--scale", str(scale), "--table", "Counters", "--top", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "insights-hot#0" in result.output
    assert f"HOT: throttles at {scale}x" in result.output
    assert f"at {scale}x this traffic, throttles" in result.output
