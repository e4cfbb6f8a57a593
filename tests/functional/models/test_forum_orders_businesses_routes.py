"""The seed 001/002 model routes through their resolvers on moto: bad input is a 400 naming the field,
unknown ids are 404s, page tokens only work for the query that issued them.

Fast and functional only: what DynamoDB reads and returns is proven on DynamoDB Local
(tests/integration/models).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import boto3
import pytest

from tatami_functions.businesses import api as businesses_api
from tatami_functions.businesses.settings import BusinessesSettings
from tatami_functions.businesses.table import BUSINESSES
from tatami_functions.common import index_search, tokens
from tatami_functions.common.clients import aws_client
from tatami_functions.common.repository import forget_instances
from tatami_functions.common.tokens import PageTokenSettings
from tatami_functions.forum import api as forum_api
from tatami_functions.forum import repository as forum_repository
from tatami_functions.forum.settings import ForumTables
from tatami_functions.forum.table import FORUMS, REPLIES, THREADS
from tatami_functions.orders import api as orders_api
from tatami_functions.orders.settings import OrdersTables
from tatami_functions.orders.table import CUSTOMERS, ORDERS, ORDERS_ZINDEX
from tests.support.lambda_runtime import assert_400_naming, moto_environment, resolve
from zindex import ENV as ZINDEX_ENV

TABLES = {  # name -> schema
    "forums_table_name": FORUMS,
    "threads_table_name": THREADS,
    "replies_table_name": REPLIES,
    "orders_table_name": ORDERS,
    "customers_table_name": CUSTOMERS,
    "businesses_table_name": BUSINESSES,
}
ENV = {  # what the three constructs set, from the functions' declarations
    **ForumTables.environment(
        forums="forums_table_name", threads="threads_table_name", replies="replies_table_name"
    ),
    **OrdersTables.environment(orders="orders_table_name", customers="customers_table_name", shards=10),
    **BusinessesSettings.environment(table="businesses_table_name"),
    ZINDEX_ENV: ORDERS_ZINDEX.named("orders_table_name").to_json(),
}
APPS = {"forum": forum_api, "orders": orders_api, "businesses": businesses_api}


def _clear_caches() -> None:
    tokens._secret.cache_clear()
    index_search.searcher.cache_clear()
    aws_client.cache_clear()
    forget_instances()


@pytest.fixture(scope="module", autouse=True)
def aws() -> Iterator[None]:
    with moto_environment(ENV):
        client = boto3.client("dynamodb")
        for name, table in TABLES.items():
            client.create_table(**table.create_table_request(name))
        client.update_table(  # the orders-z GSI the ZOrderIndex construct adds
            TableName="orders_table_name",
            AttributeDefinitions=[
                {"AttributeName": "zbucket", "AttributeType": "S"},
                {"AttributeName": "zaddr", "AttributeType": "B"},
            ],
            GlobalSecondaryIndexUpdates=[
                {
                    "Create": {
                        "IndexName": "orders-z",
                        "KeySchema": [
                            {"AttributeName": "zbucket", "KeyType": "HASH"},
                            {"AttributeName": "zaddr", "KeyType": "RANGE"},
                        ],
                        "Projection": {"ProjectionType": "ALL"},
                    }
                }
            ],
        )
        secret = boto3.client("secretsmanager").create_secret(Name="page-tokens", SecretString="k" * 64)
        os.environ.update(PageTokenSettings.environment(secret_arn=secret["ARN"]))
        _clear_caches()
        forum_repository.repository().save_forum({"Name": "DynamoDB", "Category": "Amazon Web Services"})
        forum_repository.repository().save_thread({"ForumName": "DynamoDB", "Subject": "DynamoDB Thread 1"})
        yield
    _clear_caches()


def call(
    model: str, method: str, path: str, query: dict[str, str] | None = None, body: Any = None
) -> tuple[int, dict[str, Any]]:
    """One API Gateway REST proxy event through the model's resolver (path kept percent-encoded)."""
    return resolve(APPS[model].app, method, path, query=query, body=body)


def assert_400(result: tuple[int, dict[str, Any]], field: str) -> None:
    assert_400_naming(*result, field)


@pytest.mark.parametrize(
    ("path", "query", "field"),
    [
        ("/forums", {"limit": "0"}, "limit"),
        ("/forums", {"limit": "1001"}, "limit"),
        ("/forums", {"next": "not-a-token"}, "next"),
        ("/forums/a%23b/threads", None, "forum"),
        ("/forums/DynamoDB/threads", {"limit": "many"}, "limit"),
        ("/forums/DynamoDB/threads/DynamoDB%20Thread%201/replies", {"from": "yesterday"}, "from"),
        ("/forums/DynamoDB/threads/DynamoDB%20Thread%201/replies", {"to": "2011-13-01"}, "to"),
        (
            "/forums/DynamoDB/threads/DynamoDB%20Thread%201/replies",
            {"from": "2011-12-31T00:00:00Z", "to": "2011-12-15T00:00:00Z"},
            "from",
        ),
        ("/forums/DynamoDB/threads/DynamoDB%20Thread%201/replies", {"order": "sideways"}, "order"),
        ("/forums/DynamoDB/threads/x%25y", None, "subject"),
    ],
)
def test_forum_routes_refuse_bad_input(path: str, query: dict[str, str] | None, field: str) -> None:
    assert_400(call("forum", "GET", path, query), field)


@pytest.mark.parametrize(
    "path", ["/forums/Nope", "/forums/Nope/threads", "/forums/DynamoDB/threads/Nope/replies"]
)
def test_forum_unknown_ids_are_404(path: str) -> None:
    status, body = call("forum", "GET", path)
    assert status == 404 and "no " in body["message"]


def test_forum_routes_answer_with_percent_encoded_paths() -> None:
    status, thread = call("forum", "GET", "/forums/DynamoDB/threads/DynamoDB%20Thread%201")
    assert status == 200 and thread["Subject"] == "DynamoDB Thread 1"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "CustomerId"),
        ({"CustomerId": "c-1"}, "Total"),
        ({"CustomerId": "c#1", "Total": 1}, "CustomerId"),
        ({"CustomerId": "c-1", "Total": -1}, "Total"),
        ({"CustomerId": "c-1", "Total": 1.234}, "Total"),
        ({"CustomerId": "c-1", "Total": "lots"}, "Total"),
        ({"CustomerId": "c-1", "Total": 1, "OrderId": "x" * 37}, "OrderId"),
        ({"CustomerId": "c-1", "Total": 1, "Status": "DELIVERED"}, "Status"),
        ("{not json", "body"),
    ],
)
def test_placing_an_order_validates_the_body(body: Any, field: str) -> None:
    assert_400(call("orders", "POST", "/orders", body=body), field)


@pytest.mark.parametrize(
    ("method", "path", "query", "body", "field"),
    [
        ("GET", "/orders/a%23b", None, None, "id"),
        ("PATCH", "/orders/o-1", None, {"Status": "LOST"}, "Status"),
        ("PATCH", "/orders/o-1", None, {}, "Status"),
        ("GET", "/orders", None, None, "status"),
        ("GET", "/orders", {"status": "LOST"}, None, "status"),
        ("GET", "/orders", {"status": "PENDING", "since": "last week"}, None, "since"),
        ("GET", "/customers/c-1/orders", {"status": "pending"}, None, "status"),
        ("GET", "/customers/c-1/orders", {"to": "2024-01-01", "before": "2024-01-01"}, None, "before"),
        ("GET", "/customers/c-1/orders", {"from": "2024-02-01", "before": "2024-01-01"}, None, "from"),
        ("GET", "/customers/c-1/orders", {"limit": "-5"}, None, "limit"),
        ("GET", "/customers/%20/orders", None, None, "id"),
        ("GET", "/orders/search", {"total_min": "10", "total_max": "5"}, None, "total_min"),
        ("GET", "/orders/search", {"total_min": "-1"}, None, "total_min"),
        ("GET", "/orders/search", {"from": "2024-02-01", "to": "2024-01-01"}, None, "from"),
        ("GET", "/orders/search", {"status": "LOST"}, None, "status"),
        ("GET", "/orders/search", {"to": "0502-09-29T14:43:56.52Z"}, None, "to"),  # before Timestamp(44)
        ("GET", "/orders/search", {"from": "2300-01-01"}, None, "from"),  # after it
        ("GET", "/orders/search", {"limit": "1001"}, None, "limit"),
        ("GET", "/orders/search", {"next": "forged"}, None, "next"),
    ],
)
def test_order_routes_refuse_bad_input(
    method: str, path: str, query: dict[str, str] | None, body: Any, field: str
) -> None:
    assert_400(call("orders", method, path, query, body), field)


def test_orders_place_conflict_and_not_found() -> None:
    status, order = call(
        "orders", "POST", "/orders", body={"CustomerId": "c-1", "Total": 12.5, "OrderId": "o-1"}
    )
    assert status == 201 and order["Status"] == "PENDING" and order["Total"] == 12.5
    status, body = call("orders", "POST", "/orders", body={"CustomerId": "c-1", "Total": 3, "OrderId": "o-1"})
    assert status == 409 and "already placed" in body["message"]
    assert call("orders", "GET", "/customers/c-1")[1]["OrderCount"] == 1
    assert call("orders", "PATCH", "/orders/o-1", body={"Status": "ORDERED"})[1]["Status"] == "ORDERED"
    for method, path, body in [
        ("GET", "/orders/o-404", None),
        ("PATCH", "/orders/o-404", {"Status": "DELIVERED"}),
        ("GET", "/customers/nobody", None),
        ("GET", "/customers/nobody/orders", None),
    ]:
        assert call("orders", method, path, body=body)[0] == 404, path


def _token_for(model: str, path: str, query: dict[str, str]) -> str:
    status, body = call(model, "GET", path, {**query, "limit": "1"})
    assert status == 200 and body["next"], body
    return str(body["next"])


def test_a_page_token_only_works_for_the_query_that_issued_it() -> None:
    for n in range(3):
        call("orders", "POST", "/orders", body={"CustomerId": "alice", "Total": n})
    call("orders", "POST", "/orders", body={"CustomerId": "bob", "Total": 1})
    alices = _token_for("orders", "/customers/alice/orders", {})
    assert call("orders", "GET", "/customers/alice/orders", {"next": alices})[0] == 200
    assert_400(call("orders", "GET", "/customers/bob/orders", {"next": alices}), "next")
    assert_400(
        call("orders", "GET", "/customers/alice/orders", {"next": alices, "status": "PENDING"}), "next"
    )
    payload, mac = alices.split(".")
    forged = payload[:-2] + ("AA" if payload[-2:] != "AA" else "BB") + "." + mac
    assert_400(call("orders", "GET", "/customers/alice/orders", {"next": forged}), "next")
    pending = _token_for("orders", "/orders", {"status": "PENDING"})
    assert_400(call("orders", "GET", "/orders", {"status": "DELIVERED", "next": pending}), "next")


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
    token = _token_for("businesses", "/businesses", {"type": "CoffeeShop", "location": "USA"})
    assert_400(call("businesses", "GET", "/businesses", {"type": "CoffeeShop", "next": token}), "next")
    assert_400(
        call("businesses", "GET", "/businesses", {"type": "Restaurant", "location": "USA", "next": token}),
        "next",
    )


def test_orders_search_finds_by_date_total_and_status_with_its_plan() -> None:
    from tests.support.zindex import write_indexed

    declaration = ORDERS_ZINDEX.named("orders_table_name")
    orders = [
        {
            "OrderId": f"s-{n}",
            "CustomerId": "carol",
            "OrderDate": f"2024-03-{n + 1:02d}T10:00:00.000Z",
            "Status": "DELIVERED" if n % 2 else "PENDING",
            "Total": n * 10,
        }
        for n in range(20)
    ]
    write_indexed(boto3.client("dynamodb"), declaration, orders)
    query = {
        "from": "2024-03-05",
        "to": "2024-03-15T23:59:59Z",
        "status": "DELIVERED",
        "total_min": "50",
        "explain": "true",
    }
    status, body = call("orders", "GET", "/orders/search", query)
    assert status == 200, body
    expected = {f"s-{n}" for n in range(4, 15) if n % 2 and n * 10 >= 50}
    assert {i["OrderId"] for i in body["items"]} == expected and body["next"] is None
    assert set(body["items"][0]) == {"OrderId", "CustomerId", "OrderDate", "Status", "Total"}
    assert body["stats"]["plan"] and [row["chosen"] for row in body["plan"]].count(True) == 1


@pytest.mark.parametrize(("spelled", "stored"), [("1E+9", 1_000_000_000), ("0E-100", 0), ("12.5", 12.5)])
def test_a_total_in_exponent_form_is_placed_and_read_back(spelled: str, stored: float) -> None:
    order_id = f"exp-{spelled.replace('+', 'p').replace('-', 'm').replace('.', 'd')}"
    status, placed = call(
        "orders", "POST", "/orders", body={"CustomerId": "c-1", "Total": spelled, "OrderId": order_id}
    )
    assert status == 201, placed  # "0E-100" failed the transaction before (fuzzing found it)
    assert call("orders", "GET", f"/orders/{order_id}") == (200, placed) and placed["Total"] == stored


def test_an_indexed_order_reads_and_changes_without_its_index_keys() -> None:
    """The maintainer adds binary Z-index keys to the order; GET and PATCH answer without them
    (they were a 502: fuzzing found it)."""
    from zindex.dynamodb import IndexRepository
    from zindex.keys import index_keys

    status, placed = call(
        "orders", "POST", "/orders", body={"CustomerId": "c-1", "Total": 42, "OrderId": "zk-1"}
    )
    assert status == 201, placed
    declaration = ORDERS_ZINDEX.named("orders_table_name")
    image = {**placed, "Total": Decimal(str(placed["Total"]))}
    written = index_keys(declaration, image)
    assert any(isinstance(v, bytes) for v in written.values())
    IndexRepository(declaration, boto3.client("dynamodb")).write_index_keys(
        {"OrderId": "zk-1"}, written, image
    )
    assert call("orders", "GET", "/orders/zk-1") == (200, placed)
    status, changed = call("orders", "PATCH", "/orders/zk-1", body={"Status": "ORDERED"})
    assert status == 200 and changed == {**placed, "Status": "ORDERED"}
