"""The businesses routes over real HTTP on the app's local cloud, with the `make run` sample data."""

from __future__ import annotations

import requests

from tatami.samples import businesses as sample
from tests.support.forum_orders import get


def test_businesses_drill_down_read_and_write(forum_orders_api: str) -> None:
    status, usa = get(forum_orders_api, "/businesses", type="CoffeeShop", location="USA")
    assert status == 200
    assert [b["BusinessName"] for b in usa["items"]] == ["Business2", "Seattle Roasters"]
    _, washington = get(forum_orders_api, "/businesses", type="Restaurant", location="USA:Washington")
    assert [b["City"] for b in washington["items"]] == ["Seattle", "Spokane", "Spokane Valley"]
    _, seattle = get(forum_orders_api, "/businesses", type="FitnessCenter", location="USA:Washington:Seattle")
    assert seattle["items"] == [sample.business_data()["seed"][0]]
    assert get(forum_orders_api, "/businesses/business-9")[1]["BusinessName"].startswith("Beans by Mail")
    listing = {
        "BusinessType": "Bakery",
        "BusinessName": "Tatami Bread",
        "Country": "Japan",
        "State": "Tokyo",
        "City": "Chiyoda",
    }
    put = requests.put(f"{forum_orders_api}/businesses/http-bakery", json=listing, timeout=30)
    assert put.status_code == 200 and put.json() == {"BusinessId": "http-bakery", **listing}
    assert get(forum_orders_api, "/businesses", type="Bakery", location="Japan:Tokyo")[1]["items"] == [
        put.json()
    ]
