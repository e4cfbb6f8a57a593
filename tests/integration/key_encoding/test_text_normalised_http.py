"""Text normalised at the boundary, over real HTTP on the app's local cloud: the NFC and NFD spellings
of one name reach the same locker, document and thread; ids of letters of any script, combining
marks and emoji route; an encoded slash (%2F) stays inside its id."""

from __future__ import annotations

import unicodedata
import uuid
from typing import Any
from urllib.parse import quote

import requests

from tatami.local.cloud import LocalCloud
from tatami_functions import stack_outputs


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _send(cloud: LocalCloud, method: str, path: str, body: Any = None, **query: str) -> requests.Response:
    # quote() keeps the spelling it is given: the NFD path reaches the API as NFD bytes.
    return requests.request(method, cloud.api_url + quote(path), json=body, params=query, timeout=30)


def test_nfc_and_nfd_spellings_reach_the_same_locker(app_cloud: LocalCloud) -> None:
    tag = uuid.uuid4().hex[:6]
    locker = {"state": "東京都", "location": f"渋谷区#ガーデンビル{tag}", "name": "ガ", "address": "渋谷"}
    assert nfd(locker["location"]) != locker["location"]
    as_nfd = {**locker, "location": nfd(locker["location"])}
    created = _send(app_cloud, "PUT", f"/lockers/ロッカー-{tag}", as_nfd)
    assert created.status_code == 201, created.text
    assert created.json()["location"] == locker["location"]  # stored as NFC
    for spelling in (locker["location"], nfd(locker["location"])):
        found = _send(app_cloud, "GET", "/lockers", state="東京都", location=spelling).json()["items"]
        assert [item["locker_id"] for item in found] == [f"ロッカー-{tag}"], spelling
    assert _send(app_cloud, "GET", nfd(f"/lockers/ロッカー-{tag}")).status_code == 200


def test_nfc_and_nfd_spellings_reach_the_same_document(app_cloud: LocalCloud) -> None:
    user = f"ユーザーが-{uuid.uuid4().hex[:6]}"
    document = {"status": "PENDING", "summary": "s", "document": "本文"}
    path = f"/users/{user}/documents/報告.1"
    assert _send(app_cloud, "PUT", nfd(path), document).status_code == 201
    for spelling in (path, nfd(path)):
        read = _send(app_cloud, "GET", spelling)
        assert (read.status_code, read.json().get("user_id")) == (200, user), read.text


def test_nfc_and_nfd_spellings_and_encoded_slashes_reach_the_same_thread(app_cloud: LocalCloud) -> None:
    tag = uuid.uuid4().hex[:6]
    forum, subject = f"forum-{tag}", f"A/B テストのガイド {tag}"  # NFC, as the API stores text
    app_cloud.client("dynamodb").put_item(  # in a forum of its own: the sample's forums stay as loaded
        TableName=app_cloud.outputs[stack_outputs.OUTPUT_THREADS_TABLE],
        Item={"ForumName": {"S": forum}, "Subject": {"S": subject}},
    )
    for spelling in (subject, nfd(subject)):
        encoded = quote(spelling, safe="")  # '/' as %2F: part of the subject, not a path separator
        read = requests.get(f"{app_cloud.api_url}/forums/{forum}/threads/{encoded}", timeout=30)
        assert (read.status_code, read.json().get("Subject")) == (200, subject), read.text
    split = requests.get(f"{app_cloud.api_url}/forums/{forum}/threads/{quote(subject)}", timeout=30)
    # an unencoded '/' does separate path segments: no route has them, and API Gateway says so as 403
    assert (split.status_code, split.json()) == (403, {"message": "Missing Authentication Token"})


def test_ids_of_any_script_combining_marks_and_emoji_route(app_cloud: LocalCloud) -> None:
    for device in ("機器-1", nfd("Café-é"), "📟-pager"):
        body = {"level": "INFO", "message": "m", "created_at": "2020-02-02T00:00:00Z"}
        posted = _send(app_cloud, "POST", f"/devices/{device}/logs", body)
        assert posted.status_code == 201, (device, posted.text)
        assert posted.json()["device_id"] == unicodedata.normalize("NFC", device)
        listed = _send(app_cloud, "GET", f"/devices/{device}/logs").json()["items"]
        assert [log["device_id"] for log in listed] == [unicodedata.normalize("NFC", device)]
    refused = _send(app_cloud, "GET", "/counters/a#b")  # '#' separates a counter from its shard
    assert refused.status_code == 400 and refused.json()["message"].startswith("name:"), refused.text
