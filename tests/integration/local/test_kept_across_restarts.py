"""`tatami local --db-path` keeps what the app stored outside DynamoDB too: after a restart of the
whole local cloud, every document body and export file (S3), every parked message (SQS) and the
page-token key (Secrets Manager: a `next` token signed before still works) is there as it was."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import requests

from tatami.local.cloud import LocalCloud, LocalCloudConfig, free_ports

USER = "kept-user"
# 60 KB of UTF-8 that gzip cannot shrink below what stays inline: the body goes to S3.
LONG_BODY = "".join(chr(0x4E00 + n) for n in random.Random(36).choices(range(20_000), k=20_000))


def _config(cdk_out: Path, root: Path) -> LocalCloudConfig:
    return LocalCloudConfig(
        cdk_out=cdk_out,
        **free_ports(),
        work_dir=root / "work",
        db_path=root / "db",
        echo_logs=False,
        warm_functions=False,
        alarm_interval=0,
    )


def _objects(cloud: LocalCloud) -> dict[str, dict[str, str]]:
    """Every object of every bucket of the template: bucket -> key -> ETag."""
    s3 = cloud.client("s3")
    return {
        bucket: {o["Key"]: o["ETag"] for o in s3.list_objects_v2(Bucket=bucket).get("Contents", [])}
        for bucket in (cloud.resolver.refs[logical_id] for logical_id in cloud.assembly.buckets)
    }


def _messages(cloud: LocalCloud) -> dict[str, list[str]]:
    """The bodies of every queue's messages (received, so invisible for a while: read once)."""
    sqs = cloud.client("sqs")
    found: dict[str, list[str]] = {}
    for logical_id in cloud.assembly.queues:
        url = cloud.resolver.refs[logical_id]
        received = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", [])
        found[logical_id] = sorted(message["Body"] for message in received)
    return found


def _put_documents(cloud: LocalCloud) -> dict[str, Any]:
    api = cloud.api_url
    for report, body in (("kept-long", LONG_BODY), ("kept-short", "short")):
        document = {"status": "PENDING", "summary": report, "document": body}
        answer = requests.put(f"{api}/users/{USER}/documents/{report}", json=document, timeout=60)
        assert answer.status_code == 201, (answer.text, cloud.log.snapshot()[-30:])
    first_page = requests.get(f"{api}/users/{USER}/documents", params={"limit": 1}, timeout=60)
    assert first_page.ok and first_page.json()["next"], first_page.text
    return dict(first_page.json())


@pytest.mark.slow
def test_bodies_exports_parked_messages_and_the_token_key_survive_a_restart(
    app_cloud: LocalCloud, tmp_path: Path
) -> None:
    (tmp_path / "db").mkdir()
    with LocalCloud(_config(app_cloud.config.cdk_out, tmp_path)) as cloud:
        first_page = _put_documents(cloud)
        (exporter,) = [f for f in cloud.assembly.functions if f.startswith("OlapExportFunction")]
        export = cloud.invoke(exporter, {"tables": ["documents"], "kind": "full"})  # one table: seconds
        assert export.ok, export.error
        for n, logical_id in enumerate(cloud.assembly.queues):  # a failure parked on every queue
            cloud.client("sqs").send_message(
                QueueUrl=cloud.resolver.refs[logical_id], MessageBody=f"parked {n}"
            )
        objects = _objects(cloud)
        assert any(key.startswith("documents/") for keys in objects.values() for key in keys), objects
        exported = [key for keys in objects.values() for key in keys if "/AWSDynamoDB/" in key]
        assert exported, (export.result, objects)
    with LocalCloud(_config(app_cloud.config.cdk_out, tmp_path)) as cloud:
        assert _objects(cloud) == objects
        assert _messages(cloud) == {
            logical_id: [f"parked {n}"] for n, logical_id in enumerate(cloud.assembly.queues)
        }
        kept = requests.get(f"{cloud.api_url}/users/{USER}/documents/kept-long", timeout=60)
        assert kept.status_code == 200 and kept.json()["document"] == LONG_BODY, kept.text[:300]
        token = first_page["next"]
        second_page = requests.get(
            f"{cloud.api_url}/users/{USER}/documents", params={"limit": 1, "next": token}, timeout=60
        )
        assert second_page.status_code == 200, second_page.text  # signed with the kept key
        assert [item["report_id"] for item in second_page.json()["items"]] != [
            item["report_id"] for item in first_page["items"]
        ]
