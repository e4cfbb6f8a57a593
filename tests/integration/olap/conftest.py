"""Exported tables of their own on the session's DynamoDB Local, and a moto server as their S3.

The four tables have the key schemas of the services' constructs (tests/infra checks those), with
unique names, so the named queries' answers depend on this module's data only.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tatami.local.engines import processes as engines
from tatami.target import Target
from tatami_functions.orders.table import CUSTOMERS, ORDERS
from tatami_functions.stack_outputs import OUTPUT_OLAP_BUCKET, OUTPUT_OLAP_TABLES
from tests.integration.olap import known_data


@pytest.fixture(scope="session")
def moto_s3(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    engine = engines.start_moto(engines.free_port(), tmp_path_factory.mktemp("moto") / "moto.log")
    yield engine.endpoint
    engine.stop()


@dataclass
class World:
    """A local target whose outputs name this world's tables (key -> name) and bucket."""

    target: Target
    names: dict[str, str]
    bucket: str
    folder: Path

    def client(self, service: str) -> Any:
        return self.target.client(service)

    def scan_count(self, key: str) -> int:
        pages = (
            self.client("dynamodb").get_paginator("scan").paginate(TableName=self.names[key], Select="COUNT")
        )
        return sum(page["Count"] for page in pages)


def _keys(*attributes: tuple[str, str]) -> dict[str, Any]:
    kinds = ("HASH", "RANGE")
    return {
        "KeySchema": [
            {"AttributeName": n, "KeyType": k} for (n, _), k in zip(attributes, kinds, strict=False)
        ],
        "AttributeDefinitions": [{"AttributeName": n, "AttributeType": t} for n, t in attributes],
        "BillingMode": "PAY_PER_REQUEST",
    }


def make_world(dynamodb_endpoint: str, s3_endpoint: str, folder: Path) -> World:
    suffix = uuid.uuid4().hex[:8]
    names = {key: f"olap-{key}-{suffix}" for key in ("counter_shards", "ip_ranges", "device_logs", "orders")}
    customers = f"olap-customers-{suffix}"
    target = Target("test", {}, dynamodb_endpoint, s3_endpoint)
    dynamodb = target.client("dynamodb")
    dynamodb.create_table(TableName=names["counter_shards"], **_keys(("pk", "S")))
    dynamodb.create_table(TableName=names["ip_ranges"], **_keys(("pk", "S"), ("sk", "B")))
    dynamodb.create_table(
        TableName=names["device_logs"], **_keys(("device_id", "S"), ("level_with_created_at", "S"))
    )
    dynamodb.create_table(**ORDERS.create_table_request(names["orders"]))
    dynamodb.create_table(**CUSTOMERS.create_table_request(customers))
    arns = {key: dynamodb.describe_table(TableName=name)["Table"]["TableArn"] for key, name in names.items()}
    bucket = f"olap-{suffix}"
    target.client("s3").create_bucket(Bucket=bucket)
    outputs = {OUTPUT_OLAP_BUCKET: bucket, OUTPUT_OLAP_TABLES: json.dumps(arns)}
    world = World(Target("test", outputs, dynamodb_endpoint, s3_endpoint), names, bucket, folder)
    known_data.write_votes(dynamodb, names["counter_shards"])
    known_data.write_ranges(dynamodb, names["ip_ranges"], folder)
    known_data.write_logs(dynamodb, names["device_logs"])
    known_data.write_orders(dynamodb, names["orders"], customers)
    return world


@pytest.fixture(scope="module")
def world(dynamodb_local: str, moto_s3: str, tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_world(dynamodb_local, moto_s3, tmp_path_factory.mktemp("olap"))
