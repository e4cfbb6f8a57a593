"""The forum, orders and businesses resolvers on moto with their tables (a module-scoped autouse
fixture: a test module imports `aws`), and how a test calls a route of one of them."""

from __future__ import annotations

import os
from collections.abc import Iterator
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


def token_for(model: str, path: str, query: dict[str, str]) -> str:
    status, body = call(model, "GET", path, {**query, "limit": "1"})
    assert status == 200 and body["next"], body
    return str(body["next"])
