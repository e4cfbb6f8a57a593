"""Text that passes a field's character limit but not DynamoDB's key limit in UTF-8 bytes (partition
key 2,048, sort key 1,024) is a 400 naming the field, never DynamoDB's ValidationException answered
as a 503; text at the byte limit still reaches DynamoDB (`common.keys`), on the app's local cloud."""

from __future__ import annotations

from urllib.parse import quote

import pytest
import requests

from tatami.local.cloud import LocalCloud

KANA = "か"  # 3 bytes of UTF-8
EMOJI = "🏯"  # 4 bytes
FORUM = "Amazon DynamoDB"


def _get(cloud: LocalCloud, path: str, **query: str) -> requests.Response:
    return requests.get(f"{cloud.api_url}{path}", params=query, timeout=60)


def _named(answer: requests.Response, field: str) -> bool:
    return answer.status_code == 400 and field in [error["field"] for error in answer.json()["errors"]]


@pytest.mark.parametrize("route", ["/threads/{}", "/threads/{}/replies"])
def test_a_subject_past_1024_bytes_is_a_400_and_one_at_it_reaches_dynamodb(
    app_cloud: LocalCloud, route: str
) -> None:
    too_long = KANA * 342  # 342 characters (within max_length 1024), 1,026 bytes
    answer = _get(app_cloud, f"/forums/{quote(FORUM)}" + route.format(quote(too_long)))
    assert _named(answer, "subject"), (answer.status_code, answer.text[:300])
    fits = KANA * 341 + "a"  # 1,024 bytes: the thread does not exist, and DynamoDB says so
    answer = _get(app_cloud, f"/forums/{quote(FORUM)}" + route.format(quote(fits)))
    assert answer.status_code in (200, 404), (answer.status_code, answer.text[:300])


def test_business_location_levels_past_their_share_of_the_sort_key_are_a_400(app_cloud: LocalCloud) -> None:
    listing = {"BusinessType": "CoffeeShop", "BusinessName": "城", "Country": "日本", "State": "東京都"}
    too_long = requests.put(
        f"{app_cloud.api_url}/businesses/castle-1", json={**listing, "City": EMOJI * 100}, timeout=60
    )
    assert _named(too_long, "City"), (too_long.status_code, too_long.text[:300])
    widest = {level: KANA * 100 for level in ("Country", "State", "City")}  # 3 x 300 bytes + 2 ':'
    stored = requests.put(f"{app_cloud.api_url}/businesses/castle-2", json={**listing, **widest}, timeout=60)
    assert stored.status_code in (200, 201), (stored.status_code, stored.text[:300])
    found = _get(app_cloud, "/businesses", type="CoffeeShop", location=":".join(widest.values()))
    assert found.status_code == 200 and [b["BusinessId"] for b in found.json()["items"]] == ["castle-2"]


def test_a_location_prefix_past_1024_bytes_is_a_400(app_cloud: LocalCloud) -> None:
    answer = _get(app_cloud, "/businesses", type="CoffeeShop", location=EMOJI * 300)  # 1,200 bytes
    assert _named(answer, "location"), (answer.status_code, answer.text[:300])
