"""What `tatami doctor` reads as a function's calls, on a small made-up asset: the handler's reachable
code only (its routes, not its sibling's), each call on the resource its code spells, with the calls
a wrapper, a transaction, a library or AWS itself makes, and never the local cloud's own branch."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tatami.doctor.access import function_access
from tatami.local.template.assembly import Assembly, FunctionSpec, Stack

SOURCES = {
    "shop/__init__.py": "",
    "shop/settings.py": """
        from shop.base import Settings, variable
        class ShopSettings(Settings):
            orders: str = variable("ORDERS_TABLE")
            carts: str = variable("CARTS_TABLE")
            secret: str = variable("SECRET_ARN")
    """,
    "shop/base.py": """
        class Settings: ...
        def variable(name, parse=str, default=None): ...
    """,
    "shop/repository.py": """
        from shop.settings import ShopSettings
        class Orders:
            def __init__(self, client, tables: ShopSettings):
                self.client, self.tables = client, tables
            def get(self, order_id):
                return self.client.get_item(TableName=self.tables.orders, Key=order_id)
            def by_customer(self, customer):
                return self._read(TableName=self.tables.orders, IndexName="ByCustomer", Key=customer)
            def _read(self, operation="query", **request):
                return getattr(self.client, operation)(**request)
            def place(self, order, cart):
                put = {"TableName": self.tables.orders, "Item": order}
                self.client.transact_write_items(
                    TransactItems=[{"Put": put}, {"Delete": {"TableName": self.tables.carts, "Key": cart}}]
                )
            def load(self, items):  # the CLI's loader: no route reaches it
                self.client.batch_write_item(RequestItems={self.tables.orders: items})
            def export(self, bucket):
                return self.client.export_table_to_point_in_time(TableArn=self.tables.orders, S3Bucket=bucket)
        class Unused:
            def get(self, key):  # named like a reached method, of a class nothing refers to
                return self.client.delete_item(TableName="x", Key=key)
    """,
    "shop/api.py": """
        from aws_lambda_powertools.utilities import parameters
        from shop.repository import Orders
        app = object()
        repository = Orders(None, None)
        @app.get("/orders/<id>")
        def get_order(id):
            parameters.get_secret(settings.secret)
            return repository.get(id)
        @app.get("/customers/<id>/orders")
        def customer_orders(id):
            return repository.by_customer(id)
        @app.post("/orders")
        def post_order():
            return repository.place({}, {})
        @app.post("/exports")
        def post_export():
            return repository.export("bucket")
    """,
    "shop/handler.py": """
        from shop.api import app
        def handler(event, context):
            return app.resolve(event, context)
    """,
}
TEMPLATE = {
    "Resources": {
        "Orders": {"Type": "AWS::DynamoDB::GlobalTable"},
        "Carts": {"Type": "AWS::DynamoDB::GlobalTable"},
        "Secret": {"Type": "AWS::SecretsManager::Secret"},
    }
}
ENVIRONMENT = {
    "ORDERS_TABLE": {"Ref": "Orders"},
    "CARTS_TABLE": {"Ref": "Carts"},
    "SECRET_ARN": {"Ref": "Secret"},
}


@pytest.fixture
def asset(tmp_path: Path) -> Path:
    for name, text in SOURCES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    return tmp_path


def calls(asset: Path, *routes: tuple[str, str]) -> set[tuple[str, str, bool | None]]:
    spec = FunctionSpec(
        "Fn", "local-Fn", "shop.handler.handler", asset, (), (), ENVIRONMENT, 10, 512, "python3.13"
    )
    assembly = Assembly(stacks=[Stack("S", TEMPLATE, {})], functions={"Fn": spec})
    return {
        (access.iam_action, "/".join(access.resources), access.index)
        for access in function_access(assembly, spec, set(routes))
    }


def test_a_route_reaches_its_calls_on_the_resources_its_code_spells(asset: Path) -> None:
    assert calls(asset, ("GET", "/orders/{id}")) == {
        ("dynamodb:GetItem", "Orders", False),
        ("secretsmanager:GetSecretValue", "Secret", False),
    }


def test_a_wrapper_defaulting_to_an_operation_is_a_query_of_the_index_named(asset: Path) -> None:
    assert calls(asset, ("GET", "/customers/{id}/orders")) == {("dynamodb:Query", "Orders", True)}


def test_a_transaction_is_its_items_each_on_its_own_table(asset: Path) -> None:
    assert calls(asset, ("POST", "/orders")) == {
        ("dynamodb:PutItem", "Orders", False),
        ("dynamodb:DeleteItem", "Carts", False),
    }


def test_an_export_writes_s3_as_the_caller(asset: Path) -> None:
    found = calls(asset, ("POST", "/exports"))
    assert ("dynamodb:ExportTableToPointInTime", "Orders", False) in found
    assert {action for action, _, _ in found if action.startswith("s3:")} == {
        "s3:AbortMultipartUpload",
        "s3:PutObject",
        "s3:PutObjectAcl",
    }
    assert not any(action == "dynamodb:Scan" for action, _, _ in found)


def test_no_route_no_call_and_no_loader(asset: Path) -> None:
    assert calls(asset) == set()  # a sibling function serves the routes; BatchWriteItem is the CLI's
