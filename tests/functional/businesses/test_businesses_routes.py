"""The businesses routes through their resolver on moto: bad input is a 400 naming the field, unknown ids
are 404s, page tokens only work for the query that issued them (reads are proven on DynamoDB Local)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import forum_orders_moto
from tests.support.forum_orders_moto import assert_400, call, token_for

aws = forum_orders_moto.aws  # the module's moto and tables (autouse)


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({}, "type"),
        ({"type": "Coffee Shop"}, "type"),
        ({"type": "CoffeeShop", "location": "USA::Seattle"}, "location"),
        ({"type": "CoffeeShop", "location": "a:b:c:d"}, "location"),
        ({"type": "CoffeeShop", "location": ""}, "location"),
    ],
)
def test_business_listing_refuses_bad_input(query: dict[str, str], field: str) -> None:
    assert_400(call("businesses", "GET", "/businesses", query or None), field)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"BusinessType": "CoffeeShop"}, "BusinessName"),
        ({"BusinessType": "CoffeeShop", "BusinessName": " "}, "BusinessName"),
        ({"BusinessType": "Coffee#Shop", "BusinessName": "B"}, "BusinessType"),
        ({"BusinessType": "CoffeeShop", "BusinessName": "B", "Country": "USA", "State": "WA"}, "City"),
        (
            {"BusinessType": "CoffeeShop", "BusinessName": "B", "Country": "U:S", "State": "W", "City": "S"},
            "Country",
        ),
        ({"BusinessType": "CoffeeShop", "BusinessName": "B", "Rating": 5}, "Rating"),
    ],
)
def test_business_writes_refuse_bad_input(body: dict[str, Any], field: str) -> None:
    status, response = call("businesses", "PUT", "/businesses/b-1", body=body)
    assert status == 400 and field in response["message"], response


def test_businesses_write_read_404_and_scoped_tokens() -> None:
    for n, city in enumerate(["Seattle", "Spokane"]):
        listing_body = {
            "BusinessType": "CoffeeShop",
            "BusinessName": f"B{n}",
            "Country": "USA",
            "State": "WA",
            "City": city,
        }
        assert call("businesses", "PUT", f"/businesses/b-{n}", body=listing_body)[0] == 200
    assert call("businesses", "GET", "/businesses/b-0")[1]["City"] == "Seattle"
    assert call("businesses", "GET", "/businesses/b-404")[0] == 404
    token = token_for("businesses", "/businesses", {"type": "CoffeeShop", "location": "USA"})
    assert_400(call("businesses", "GET", "/businesses", {"type": "CoffeeShop", "next": token}), "next")
    assert_400(
        call("businesses", "GET", "/businesses", {"type": "Restaurant", "location": "USA", "next": token}),
        "next",
    )
