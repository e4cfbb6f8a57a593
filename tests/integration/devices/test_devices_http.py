"""The device-log routes over real HTTP on the app's local cloud, with the sample loaded as `make run`
loads it; tamper-proof tokens, and the TTL archiver in its Lambda environment."""

from __future__ import annotations

import gzip
import json
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from tatami.local.cloud import LocalCloud
from tatami.local.events.filters import matches_any
from tatami.samples import workshop_data
from tatami_functions.devices.archive import object_key
from tests.support.models_workshop import call, get


def at(logs: list[dict[str, Any]]) -> list[str]:
    return [f"{log['device_id']}@{log['created_at'][11:19]}" for log in logs]


def test_get_device_logs_by_level_newest_first(workshop_api: str) -> None:
    body = get(workshop_api, "/devices/12345/logs", level="WARNING").json()
    assert at(body["items"]) == ["12345@00:00:08", "12345@00:00:03", "12345@00:00:00"]
    assert body["stats"] == {"queries": 1, "items_read": 3, "consumed_rcu": 0.5}


def test_get_operator_logs_in_the_seeds_window(workshop_api: str) -> None:
    window = {"from": "2020-02-02T00:00:00.000Z", "to": "2020-02-02T00:00:10.000Z"}
    body = get(workshop_api, "/operators/MAX/logs", **window).json()
    assert at(body["items"]) == ["12345@00:00:08", "67890@00:00:02", "12345@00:00:00"]
    assert body["stats"]["items_read"] == 3


def test_get_escalations_from_the_sparse_index(workshop_api: str) -> None:
    body = get(workshop_api, "/escalations").json()
    assert sorted(at(body["items"])) == ["12345@00:00:08", "12345@00:00:12", "67890@00:00:09"]
    assert body["stats"]["items_read"] == 3  # of the 15 logs in the table
    assert at(get(workshop_api, "/escalations", to="SARA", level="ERROR").json()["items"]) == [
        "12345@00:00:12"
    ]


def test_get_recent_logs_across_all_devices(workshop_api: str) -> None:
    """The sample's recent logs are dated 5 ... 600 minutes before their load, which may have been many
    minutes before this test: the 4-hour window is checked against the clock, not against a count."""
    body = get(workshop_api, "/logs/recent", hours=4).json()
    now = datetime.now(UTC)
    half_day = get(workshop_api, "/logs/recent", hours=12, limit=100).json()["items"]
    sample = Counter(log["message"] for log in workshop_data()["recent_logs"]["logs"])
    assert sample <= Counter(log["message"] for log in half_day)  # all 8, or the session ran over 2 hours

    def older_than_4_hours(log: dict[str, Any], by: timedelta) -> bool:
        return datetime.fromisoformat(log["created_at"]) < now - timedelta(hours=4) - by

    def logs(found: list[dict[str, Any]]) -> set[tuple[str, str]]:
        return {(log["device_id"], log["created_at"]) for log in found}

    margin = timedelta(seconds=30)  # the function's clock read the window a moment before `now`
    inside = logs([log for log in half_day if not older_than_4_hours(log, -margin)])
    outside = logs([log for log in half_day if older_than_4_hours(log, margin)])
    found = logs(body["items"])
    assert inside <= found and not found & outside and len(inside) >= 5  # 5 ... 150 min ago
    created = [log["created_at"] for log in body["items"]]
    assert created == sorted(created, reverse=True)
    assert body["stats"]["queries"] >= 10  # every shard of the random-shard GSI


def test_post_then_patch_a_log_in_and_out_of_the_escalations(workshop_api: str) -> None:
    log = {
        "level": "CRITICAL",
        "message": "火災報知",
        "created_at": "2020-02-03T00:00:00Z",
        "operator": "SUE",
    }
    created = call(workshop_api, "POST", "/devices/http-1/logs", log)
    assert created.status_code == 201 and created.json()["created_at"] == "2020-02-03T00:00:00.000Z"
    assert call(workshop_api, "POST", "/devices/http-1/logs", log).status_code == 201  # a retry is harmless
    clash = call(workshop_api, "POST", "/devices/http-1/logs", {**log, "message": "別物"})
    assert clash.status_code == 409 and clash.json()["message"].startswith("created_at:")
    path = "/devices/http-1/logs/CRITICAL/2020-02-03T00:00:00.000Z"
    assert call(workshop_api, "PATCH", path, {"escalated_to": "BOSS"}).json()["escalated_to"] == "BOSS"
    assert at(get(workshop_api, "/escalations", to="BOSS").json()["items"]) == ["http-1@00:00:00"]
    assert "escalated_to" not in call(workshop_api, "PATCH", path, {"escalated_to": None}).json()
    assert get(workshop_api, "/escalations", to="BOSS").json()["items"] == []
    missing = call(
        workshop_api, "PATCH", "/devices/http-1/logs/INFO/2020-02-03T00:00:00.000Z", {"operator": "MAX"}
    )
    assert missing.status_code == 404


def test_device_log_pages_carry_a_token_bound_to_their_query(workshop_api: str) -> None:
    first = get(workshop_api, "/devices/12345/logs", limit=2).json()
    assert len(first["items"]) == 2 and first["next"]
    second = get(workshop_api, "/devices/12345/logs", limit=2, next=first["next"]).json()
    assert (
        at(first["items"] + second["items"])
        == at(get(workshop_api, "/devices/12345/logs").json()["items"])[:4]
    )
    for other in ({"limit": 2, "level": "WARNING"}, {"limit": 2, "from": "2020-01-01T00:00:00Z"}):
        assert get(workshop_api, "/devices/12345/logs", next=first["next"], **other).status_code == 400
    stolen = get(workshop_api, "/devices/67890/logs", limit=2, next=first["next"])
    assert stolen.status_code == 400 and stolen.json()["message"].startswith("next:")
    forged = first["next"][:-2] + ("AA" if not first["next"].endswith("AA") else "BB")
    assert get(workshop_api, "/devices/12345/logs", limit=2, next=forged).status_code == 400


def test_the_archiver_keeps_ttl_deletions_only(app_cloud: LocalCloud) -> None:
    (mapping,) = [m for m in app_cloud.assembly.stream_mappings if "LogArchiver" in m.function_id]
    ttl = {
        "eventName": "REMOVE",
        "userIdentity": {"type": "Service", "principalId": "dynamodb.amazonaws.com"},
    }
    assert matches_any(ttl, mapping.filter_patterns)
    assert not matches_any({"eventName": "REMOVE"}, mapping.filter_patterns)  # a user's DeleteItem
    assert not matches_any({"eventName": "INSERT"}, mapping.filter_patterns)
    record = {
        **ttl,
        "dynamodb": {
            "SequenceNumber": f"{time.time_ns()}",
            "ApproximateCreationDateTime": 1580601600,
            "OldImage": {"device_id": {"S": "12345"}, "message": {"S": "古いログ"}, "expires_at": {"N": "1"}},
        },
    }
    invocation = app_cloud.invoke(mapping.function_id, {"Records": [record]})
    assert invocation.ok, invocation.error
    assert invocation.result == {"batchItemFailures": []}
    s3, bucket = app_cloud.client("s3"), app_cloud.outputs["WorkshopBucketName"]
    body = s3.get_object(Bucket=bucket, Key=object_key([record]))["Body"].read()
    assert json.loads(gzip.decompress(body)) == {"device_id": "12345", "expires_at": 1, "message": "古いログ"}
