"""The lockers routes over real HTTP on the app's local cloud, with the sample `make run` loads."""

from __future__ import annotations

from tests.support.models_workshop import call, get


def test_get_lockers_drills_down_to_kioicho(workshop_api: str) -> None:
    body = get(workshop_api, "/lockers", state="東京都", location="千代田区#紀尾井町").json()
    assert [locker["locker_id"] for locker in body["items"]] == ["kioi-1", "kioi-2"]
    same = get(workshop_api, "/lockers", state="東京都", location="千代田区/紀尾井町").json()
    assert same["items"] == body["items"]
    missing = get(workshop_api, "/lockers")  # API Gateway checks the required query string
    assert missing.status_code == 400 and "state" in missing.json()["message"]


def test_put_get_move_and_delete_a_locker(workshop_api: str) -> None:
    locker = {
        "state": "千葉県",
        "location": "千葉市中央区#中央",
        "name": "中央ロッカー",
        "address": "千葉県千葉市中央区中央1-1",
    }
    assert call(workshop_api, "PUT", "/lockers/chuo-1", locker).status_code == 201
    assert (
        call(workshop_api, "PUT", "/lockers/chuo-1", {**locker, "location": "千葉市中央区#本町"}).status_code
        == 200
    )
    assert get(workshop_api, "/lockers/chuo-1").json()["location"] == "千葉市中央区#本町"
    assert get(workshop_api, "/lockers", state="千葉県", location="千葉市中央区/中央").json()["items"] == []
    assert call(workshop_api, "DELETE", "/lockers/chuo-1").status_code == 204
    assert get(workshop_api, "/lockers/chuo-1").status_code == 404
