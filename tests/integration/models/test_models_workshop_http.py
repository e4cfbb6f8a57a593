"""Seed 004's routes over real HTTP on the app's local cloud, with the sample loaded as `make run` loads it.

One test per route checks the seed's example answer; others check 404s, tamper-proof tokens, where
document bodies go, and the TTL archiver in its Lambda environment.
"""

from __future__ import annotations

import gzip
import json
import time
from typing import Any
from urllib.parse import quote

import pytest
import requests

from tatami.local.cloud import LocalCloud
from tatami.local.events.filters import matches_any
from tatami.samples.models_workshop import load_into, sample_data
from tatami_functions.devices.archive import object_key

SEED_CART = sample_data()["carts"]["MAX"]


@pytest.fixture(scope="module")
def api(app_cloud: LocalCloud) -> str:
    summary = load_into(app_cloud.api_url)
    assert summary.startswith("38 writes")
    return app_cloud.api_url


def get(api: str, path: str, **query: Any) -> requests.Response:
    return requests.get(api + quote(path), params=query, timeout=30)


def call(api: str, method: str, path: str, body: Any = None) -> requests.Response:
    return requests.request(method, api + quote(path), json=body, timeout=30)


def at(logs: list[dict[str, Any]]) -> list[str]:
    return [f"{log['device_id']}@{log['created_at'][11:19]}" for log in logs]


# -- device logs ----------------------------------------------------------------------------------
def test_get_device_logs_by_level_newest_first(api: str) -> None:
    body = get(api, "/devices/12345/logs", level="WARNING").json()
    assert at(body["items"]) == ["12345@00:00:08", "12345@00:00:03", "12345@00:00:00"]
    assert body["stats"] == {"queries": 1, "items_read": 3, "consumed_rcu": 0.5}


def test_get_operator_logs_in_the_seeds_window(api: str) -> None:
    window = {"from": "2020-02-02T00:00:00.000Z", "to": "2020-02-02T00:00:10.000Z"}
    body = get(api, "/operators/MAX/logs", **window).json()
    assert at(body["items"]) == ["12345@00:00:08", "67890@00:00:02", "12345@00:00:00"]
    assert body["stats"]["items_read"] == 3


def test_get_escalations_from_the_sparse_index(api: str) -> None:
    body = get(api, "/escalations").json()
    assert sorted(at(body["items"])) == ["12345@00:00:08", "12345@00:00:12", "67890@00:00:09"]
    assert body["stats"]["items_read"] == 3  # of the 15 logs in the table
    assert at(get(api, "/escalations", to="SARA", level="ERROR").json()["items"]) == ["12345@00:00:12"]


def test_get_recent_logs_across_all_devices(api: str) -> None:
    body = get(api, "/logs/recent", hours=4).json()
    messages = [log["message"] for log in body["items"]]
    assert len(messages) == 6  # the sample's logs of 5 ... 230 minutes ago; 300 and 600 are outside
    created = [log["created_at"] for log in body["items"]]
    assert created == sorted(created, reverse=True)
    assert body["stats"]["queries"] >= 10  # every shard of the random-shard GSI


def test_post_then_patch_a_log_in_and_out_of_the_escalations(api: str) -> None:
    log = {
        "level": "CRITICAL",
        "message": "火災報知",
        "created_at": "2020-02-03T00:00:00Z",
        "operator": "SUE",
    }
    created = call(api, "POST", "/devices/http-1/logs", log)
    assert created.status_code == 201 and created.json()["created_at"] == "2020-02-03T00:00:00.000Z"
    assert call(api, "POST", "/devices/http-1/logs", log).status_code == 201  # a retry is harmless
    clash = call(api, "POST", "/devices/http-1/logs", {**log, "message": "別物"})
    assert clash.status_code == 409 and clash.json()["message"].startswith("created_at:")
    path = "/devices/http-1/logs/CRITICAL/2020-02-03T00:00:00.000Z"
    assert call(api, "PATCH", path, {"escalated_to": "BOSS"}).json()["escalated_to"] == "BOSS"
    assert at(get(api, "/escalations", to="BOSS").json()["items"]) == ["http-1@00:00:00"]
    assert "escalated_to" not in call(api, "PATCH", path, {"escalated_to": None}).json()
    assert get(api, "/escalations", to="BOSS").json()["items"] == []
    missing = call(api, "PATCH", "/devices/http-1/logs/INFO/2020-02-03T00:00:00.000Z", {"operator": "MAX"})
    assert missing.status_code == 404


def test_device_log_pages_carry_a_token_bound_to_their_query(api: str) -> None:
    first = get(api, "/devices/12345/logs", limit=2).json()
    assert len(first["items"]) == 2 and first["next"]
    second = get(api, "/devices/12345/logs", limit=2, next=first["next"]).json()
    assert at(first["items"] + second["items"]) == at(get(api, "/devices/12345/logs").json()["items"])[:4]
    for other in ({"limit": 2, "level": "WARNING"}, {"limit": 2, "from": "2020-01-01T00:00:00Z"}):
        assert get(api, "/devices/12345/logs", next=first["next"], **other).status_code == 400
    stolen = get(api, "/devices/67890/logs", limit=2, next=first["next"])
    assert stolen.status_code == 400 and stolen.json()["message"].startswith("next:")
    forged = first["next"][:-2] + ("AA" if not first["next"].endswith("AA") else "BB")
    assert get(api, "/devices/12345/logs", limit=2, next=forged).status_code == 400


# -- carts ------------------------------------------------------------------------------------------
def test_get_cart_is_the_seeds_json(api: str) -> None:
    cart = get(api, "/users/MAX/cart").json()
    as_seed = [
        {**item, "quantity": str(item["quantity"]), "price": f"{item['price']:,}"}
        for item in cart["cart_items"]
    ]
    assert as_seed == SEED_CART["cart_items"] and cart["ship_to"] == SEED_CART["ship_to"]
    assert get(api, "/users/NOBODY/cart").status_code == 404


def test_get_cart_items_and_one_value(api: str) -> None:
    assert [item["item_name"] for item in get(api, "/users/MAX/cart/items").json()["items"]] == [
        "靴下",
        "お茶碗",
    ]
    price = get(api, "/users/MAX/cart/items/靴下ID/price").json()
    assert price == {"user_id": "MAX", "item_id": "靴下ID", "field": "price", "value": 3300}
    assert get(api, "/users/MAX/cart/items/箸ID/price").status_code == 404


def test_get_users_by_item_and_by_prefecture(api: str) -> None:
    socks = get(api, "/carts/by-item/靴下ID").json()
    assert [user["user_id"] for user in socks["items"]] == ["SUE", "MAX"] and socks["next"] is None
    chiba = get(api, "/carts/by-prefecture/千葉県").json()
    assert sorted(user["user_id"] for user in chiba["items"]) == ["KEN", "MAX"]
    page = get(api, "/carts/by-prefecture/千葉県", limit=1).json()
    assert get(api, "/carts/by-prefecture/東京都", next=page["next"]).status_code == 400


def test_put_change_and_delete_a_cart_item_and_the_address(api: str) -> None:
    item = {
        "item_name": "箸",
        "sku": "箸SKU",
        "quantity": 1,
        "price": 880,
        "category": "食器",
        "sub_category": "箸",
    }
    put = call(api, "PUT", "/users/HTTP-USER/cart/items/箸ID", {**item, "added_at": "2021-08-05T00:00:00Z"})
    assert put.status_code == 200 and put.json()["added_at"] == "2021-08-05T00:00:00.000Z"
    assert call(api, "PUT", "/users/HTTP-USER/cart/items/箸ID/quantity", {"value": 3}).json()["value"] == 3
    address = {**SEED_CART["ship_to"], "state": "北海道"}
    assert call(api, "PUT", "/users/HTTP-USER/cart/ship-to", address).status_code == 200
    cart = get(api, "/users/HTTP-USER/cart").json()
    assert cart["cart_items"][0]["quantity"] == 3 and cart["ship_to"]["state"] == "北海道"
    assert "HTTP-USER" in [u["user_id"] for u in get(api, "/carts/by-item/箸ID").json()["items"]]
    assert call(api, "DELETE", "/users/HTTP-USER/cart/items/箸ID").status_code == 204
    assert call(api, "DELETE", "/users/HTTP-USER/cart/items/箸ID").status_code == 404
    assert call(api, "PUT", "/users/HTTP-USER/cart/items/箸ID/quantity", {"value": 3}).status_code == 404


# -- documents --------------------------------------------------------------------------------------
def test_list_documents_by_status_without_bodies(api: str) -> None:
    body = get(api, "/users/MAX/documents", status="COMPLETED").json()
    assert [(d["report_id"], d["summary"]) for d in body["items"]] == [
        ("r-2021-07-002", "Day2 デザインパターン"),
        ("r-2021-07-001", "Day1 アーキテクチャと運用"),
    ]
    assert all("document" not in entry for entry in body["items"])
    page = get(api, "/users/MAX/documents", limit=1).json()
    assert get(api, "/users/SUE/documents", limit=1, next=page["next"]).status_code == 400


def test_a_large_body_lives_in_s3_and_a_small_one_inline(api: str, app_cloud: LocalCloud) -> None:
    large = get(api, "/users/MAX/documents/r-2021-07-002").json()
    assert large["storage"] == "s3" and large["size"] == len(large["document"]) == 256 * 1024
    s3, bucket = app_cloud.client("s3"), app_cloud.outputs["WorkshopBucketName"]
    keys = [
        o["Key"] for o in s3.list_objects_v2(Bucket=bucket, Prefix="documents/r-2021-07-002/")["Contents"]
    ]
    assert len(keys) == 1
    assert get(api, "/users/MAX/documents/r-2021-07-001").json()["storage"] == "inline"
    small = {
        "status": "COMPLETED",
        "summary": "Day2 (要約版)",
        "document": "GSI の設計",
        "created_on": "2021-07-13",
    }
    replaced = call(api, "PUT", "/users/MAX/documents/r-2021-07-002", small)
    assert replaced.status_code == 200 and replaced.json()["storage"] == "inline"
    assert "Contents" not in s3.list_objects_v2(Bucket=bucket, Prefix="documents/r-2021-07-002/")


def test_documents_are_private_patched_and_deleted(api: str) -> None:
    assert get(api, "/users/SUE/documents/r-2021-07-001").status_code == 404  # MAX's report
    taken = call(
        api,
        "PUT",
        "/users/SUE/documents/r-2021-07-001",
        {"status": "PENDING", "summary": "s", "document": "d"},
    )
    assert (taken.status_code, taken.json()["errors"][0]["field"]) == (409, "report_id")
    assert "MAX" not in taken.text and "another user" not in taken.text  # nothing of who holds it
    created = call(
        api, "PUT", "/users/SUE/documents/sue-1", {"status": "PENDING", "summary": "s", "document": "d"}
    )
    assert created.status_code == 201
    patched = call(api, "PATCH", "/users/SUE/documents/sue-1", {"status": "COMPLETED"}).json()
    assert patched["status"] == "COMPLETED"
    assert [d["report_id"] for d in get(api, "/users/SUE/documents", status="COMPLETED").json()["items"]] == [
        "sue-1"
    ]
    assert call(api, "DELETE", "/users/SUE/documents/sue-1").status_code == 204
    assert call(api, "DELETE", "/users/SUE/documents/sue-1").status_code == 404


# -- lockers ----------------------------------------------------------------------------------------
def test_get_lockers_drills_down_to_kioicho(api: str) -> None:
    body = get(api, "/lockers", state="東京都", location="千代田区#紀尾井町").json()
    assert [locker["locker_id"] for locker in body["items"]] == ["kioi-1", "kioi-2"]
    same = get(api, "/lockers", state="東京都", location="千代田区/紀尾井町").json()
    assert same["items"] == body["items"]
    missing = get(api, "/lockers")  # API Gateway checks the required query string
    assert missing.status_code == 400 and "state" in missing.json()["message"]


def test_put_get_move_and_delete_a_locker(api: str) -> None:
    locker = {
        "state": "千葉県",
        "location": "千葉市中央区#中央",
        "name": "中央ロッカー",
        "address": "千葉県千葉市中央区中央1-1",
    }
    assert call(api, "PUT", "/lockers/chuo-1", locker).status_code == 201
    assert call(api, "PUT", "/lockers/chuo-1", {**locker, "location": "千葉市中央区#本町"}).status_code == 200
    assert get(api, "/lockers/chuo-1").json()["location"] == "千葉市中央区#本町"
    assert get(api, "/lockers", state="千葉県", location="千葉市中央区/中央").json()["items"] == []
    assert call(api, "DELETE", "/lockers/chuo-1").status_code == 204
    assert get(api, "/lockers/chuo-1").status_code == 404


# -- campaigns --------------------------------------------------------------------------------------
def test_get_campaign_candidates_for_the_seeds_sticker(api: str) -> None:
    body = get(api, "/campaigns/candidates", prefecture="千葉県", birth_month=12, order_month=12).json()
    assert body["items"] == ["MAX", "RIN"] and body["next"] is None
    assert set(body["stats"]["items_read_by_index"]) == {"prefecture", "birth_month", "order_month"}
    only_chiba = get(api, "/campaigns/candidates", prefecture="千葉県").json()["items"]
    assert only_chiba == ["AYA", "KEN", "MAX", "RIN", "TOM"]


def test_put_and_get_a_campaign_profile(api: str) -> None:
    assert (
        call(api, "PUT", "/campaigns/users/NEW", {"prefecture": "千葉県", "birth_month": 12}).status_code
        == 200
    )
    assert get(api, "/campaigns/users/NEW").json() == {
        "user_id": "NEW",
        "prefecture": "千葉県",
        "birth_month": 12,
    }
    assert get(api, "/campaigns/users/NOBODY").status_code == 404


# -- the TTL archive --------------------------------------------------------------------------------
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


def test_the_openapi_document_lists_the_models_routes(app_cloud: LocalCloud) -> None:
    paths = requests.get(f"{app_cloud.api_url}/openapi.json", timeout=60).json()["paths"]
    for path in ("/devices/{device_id}/logs", "/escalations", "/logs/recent", "/users/{user_id}/cart",
                 "/users/{user_id}/documents/{report_id}", "/lockers", "/campaigns/candidates"):  # fmt: skip
        assert path in paths, path
    assert set(paths["/users/{user_id}/documents/{report_id}"]) == {"get", "put", "patch", "delete"}
