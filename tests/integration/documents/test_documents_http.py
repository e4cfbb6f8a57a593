"""The documents routes over real HTTP on the app's local cloud, with the sample loaded as `make run`
loads it: where bodies go, and that documents are private."""

from __future__ import annotations

from tatami.local.cloud import LocalCloud
from tests.support.models_workshop import call, get


def test_list_documents_by_status_without_bodies(workshop_api: str) -> None:
    body = get(workshop_api, "/users/MAX/documents", status="COMPLETED").json()
    assert [(d["report_id"], d["summary"]) for d in body["items"]] == [
        ("r-2021-07-002", "Day2 デザインパターン"),
        ("r-2021-07-001", "Day1 アーキテクチャと運用"),
    ]
    assert all("document" not in entry for entry in body["items"])
    page = get(workshop_api, "/users/MAX/documents", limit=1).json()
    assert get(workshop_api, "/users/SUE/documents", limit=1, next=page["next"]).status_code == 400


def test_a_large_body_lives_in_s3_and_a_small_one_inline(workshop_api: str, app_cloud: LocalCloud) -> None:
    large = get(workshop_api, "/users/MAX/documents/r-2021-07-002").json()
    assert large["storage"] == "s3" and large["size"] == len(large["document"]) == 256 * 1024
    s3, bucket = app_cloud.client("s3"), app_cloud.outputs["WorkshopBucketName"]
    keys = [
        o["Key"] for o in s3.list_objects_v2(Bucket=bucket, Prefix="documents/r-2021-07-002/")["Contents"]
    ]
    assert len(keys) == 1
    assert get(workshop_api, "/users/MAX/documents/r-2021-07-001").json()["storage"] == "inline"
    small = {
        "status": "COMPLETED",
        "summary": "Day2 (要約版)",
        "document": "GSI の設計",
        "created_on": "2021-07-13",
    }
    replaced = call(workshop_api, "PUT", "/users/MAX/documents/r-2021-07-002", small)
    assert replaced.status_code == 200 and replaced.json()["storage"] == "inline"
    assert "Contents" not in s3.list_objects_v2(Bucket=bucket, Prefix="documents/r-2021-07-002/")


def test_documents_are_private_patched_and_deleted(workshop_api: str) -> None:
    assert get(workshop_api, "/users/SUE/documents/r-2021-07-001").status_code == 404  # MAX's report
    taken = call(
        workshop_api,
        "PUT",
        "/users/SUE/documents/r-2021-07-001",
        {"status": "PENDING", "summary": "s", "document": "d"},
    )
    assert (taken.status_code, taken.json()["errors"][0]["field"]) == (409, "report_id")
    assert "MAX" not in taken.text and "another user" not in taken.text  # nothing of who holds it
    created = call(
        workshop_api,
        "PUT",
        "/users/SUE/documents/sue-1",
        {"status": "PENDING", "summary": "s", "document": "d"},
    )
    assert created.status_code == 201
    patched = call(workshop_api, "PATCH", "/users/SUE/documents/sue-1", {"status": "COMPLETED"}).json()
    assert patched["status"] == "COMPLETED"
    assert [
        d["report_id"] for d in get(workshop_api, "/users/SUE/documents", status="COMPLETED").json()["items"]
    ] == ["sue-1"]
    assert call(workshop_api, "DELETE", "/users/SUE/documents/sue-1").status_code == 204
    assert call(workshop_api, "DELETE", "/users/SUE/documents/sue-1").status_code == 404
