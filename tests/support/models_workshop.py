"""Test support for seed 004's models: their tables as the code declares them, and a call recorder.

The services' tables come from their declarations (`tatami_functions.<service>.table`, which their
constructs build the deployed tables from); the device logs' from the CloudFormation the
`DevicesService` construct synthesizes, in a stack of its own so the other services' constructs are
not built. Never from a second description.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass, field
from functools import cache
from typing import Any
from urllib.parse import quote

import pytest
import requests

from tatami.local.engines.provision import create_table_request
from tatami.local.template.assembly import TableSpec
from tatami_functions import stack_outputs
from tatami_functions.campaigns.table import CAMPAIGN_USERS
from tatami_functions.carts.table import CARTS
from tatami_functions.common.tables import TableSchema
from tatami_functions.documents.table import DOCUMENTS
from tatami_functions.lockers.table import LOCKERS

# Output key (e.g. "CartsTableName") -> the table as its service declares it.
DECLARED: dict[str, TableSchema] = {
    stack_outputs.OUTPUT_CARTS_TABLE: CARTS,
    stack_outputs.OUTPUT_DOCUMENTS_TABLE: DOCUMENTS,
    stack_outputs.OUTPUT_LOCKERS_TABLE: LOCKERS,
    stack_outputs.OUTPUT_CAMPAIGN_USERS_TABLE: CAMPAIGN_USERS,
}


@cache
def workshop_tables() -> dict[str, dict[str, Any]]:
    """Output key ("DeviceLogsTableName") -> the table's CloudFormation properties, from the construct."""
    os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
    import aws_cdk as cdk
    from aws_cdk import assertions

    from infra.constructs.buckets import WorkshopBucket
    from infra.constructs.page_tokens import PageTokenKey
    from infra.constructs.service_api import ServiceApi
    from infra.constructs.service_function import SharedLayers
    from infra.constructs.shared import Shared
    from infra.services.devices import DevicesService

    stack = cdk.Stack(cdk.App(), "Workshop")
    shared = Shared(
        SharedLayers(stack, "Layers"), ServiceApi(stack, "Api"), PageTokenKey(stack, "PageTokens")
    )
    DevicesService(stack, "DeviceLogs", shared=shared, bucket=WorkshopBucket(stack, "Storage").bucket)
    template = assertions.Template.from_stack(stack).to_json()
    resources = template["Resources"]
    tables: dict[str, dict[str, Any]] = {}
    for output_key, output in template["Outputs"].items():
        logical_id = output["Value"].get("Ref") if isinstance(output["Value"], dict) else None
        if logical_id in resources and resources[logical_id]["Type"] == "AWS::DynamoDB::GlobalTable":
            tables[output_key] = resources[logical_id]["Properties"]  # CfnOutput(key=...) keeps our key
    return tables


@pytest.fixture(scope="session")
def workshop(dynamodb_local: str) -> Workshop:
    """Import into a test module under tests/integration (it needs the `dynamodb_local` fixture)."""
    import boto3

    from tatami.local.engines import processes as engines
    from tatami.local.template.intrinsics import LOCAL_REGION

    client = boto3.client(
        "dynamodb", endpoint_url=dynamodb_local, region_name=LOCAL_REGION, **engines.LOCAL_CREDENTIALS
    )
    recorder = Recorder().attach(client)
    built = Workshop(client, create_tables(client), recorder)
    load_seed(built)
    recorder.clear()
    return built


def create_tables(client: Any, prefix: str | None = None) -> dict[str, str]:
    """Create every model table (with its TTL) on `client`; output key -> unique table name."""
    prefix = prefix or f"ws-{uuid.uuid4().hex[:8]}"
    names: dict[str, str] = {}
    for output_key, properties in workshop_tables().items():
        spec = TableSpec(output_key, f"{prefix}-{output_key.removesuffix('TableName')}", properties)
        client.create_table(**create_table_request(spec))
        if spec.ttl_attribute:
            client.update_time_to_live(
                TableName=spec.name,
                TimeToLiveSpecification={"Enabled": True, "AttributeName": spec.ttl_attribute},
            )
        names[output_key] = spec.name
    for output_key, schema in DECLARED.items():
        name = f"{prefix}-{output_key.removesuffix('TableName')}"
        client.create_table(**schema.create_table_request(name))
        names[output_key] = name
    return names


@dataclass
class Call:
    """One DynamoDB call as DynamoDB saw it."""

    operation: str
    index: str | None
    scanned: int | None
    count: int | None
    consumed: float | None


@dataclass
class Recorder:
    """Records every call a boto3 DynamoDB client makes (operation, index, items read, capacity)."""

    calls: list[Call] = field(default_factory=list)

    def attach(self, client: Any) -> Recorder:
        client.meta.events.register("before-parameter-build.dynamodb", self._before)
        client.meta.events.register("after-call.dynamodb", self._after)
        return self

    def _before(self, params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
        context["recorded_index"] = params.get("IndexName")

    def _after(self, parsed: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        consumed = parsed.get("ConsumedCapacity")
        if isinstance(consumed, list):  # transactions and batches report one entry per table
            consumed = {"CapacityUnits": sum(entry.get("CapacityUnits", 0.0) for entry in consumed)}
        self.calls.append(
            Call(
                model.name,
                context.get("recorded_index"),
                parsed.get("ScannedCount"),
                parsed.get("Count"),
                (consumed or {}).get("CapacityUnits"),
            )
        )

    def operations(self) -> list[tuple[str, str | None]]:
        return [(call.operation, call.index) for call in self.calls]

    def clear(self) -> None:
        self.calls.clear()


@dataclass
class Workshop:
    """The model tables on one DynamoDB Local, the seed's sample loaded, and a recorder on the client."""

    client: Any
    names: dict[str, str]
    recorder: Recorder
    loaded_at: float = 0.0

    def table(self, output_key: str) -> str:
        return self.names[output_key]


def load_seed(workshop: Workshop) -> None:
    """The sample (tatami/samples/data/models_workshop.json) written through the repositories."""
    from tatami.samples import workshop_data

    data = workshop_data()
    _load_logs(workshop, data)
    _load_carts(workshop, data)
    _load_lockers_and_profiles(workshop, data)


def _load_logs(workshop: Workshop, data: dict[str, Any]) -> None:
    from datetime import UTC, datetime, timedelta

    from tatami_functions.devices.repository import DeviceLogsRepository
    from tatami_functions.devices.schemas import LogIn
    from tatami_functions.devices.service import new_log

    logs, now = (
        DeviceLogsRepository(workshop.table("DeviceLogsTableName"), client=workshop.client),
        datetime.now(UTC),
    )
    for log in [dict(entry) for entry in data["device_logs"]]:
        logs.put_log(new_log(log.pop("device_id"), LogIn(**log), logs.shards, now.timestamp()))
    for log in [dict(entry) for entry in data["recent_logs"]["logs"]]:
        device_id, created = log.pop("device_id"), now - timedelta(minutes=log.pop("minutes_ago"))
        logs.put_log(new_log(device_id, LogIn(**log, created_at=created), logs.shards, now.timestamp()))
    workshop.loaded_at = now.timestamp()


def _load_carts(workshop: Workshop, data: dict[str, Any]) -> None:
    from tatami_functions.carts.repository import CartsRepository
    from tatami_functions.carts.schemas import ItemField

    carts = CartsRepository(workshop.table("CartsTableName"), client=workshop.client)
    for user_id, cart in data["carts"].items():
        for item in cart["cart_items"]:
            values = {field: item[field.value] for field in ItemField}
            values[ItemField.QUANTITY] = int(item["quantity"])
            values[ItemField.PRICE] = int(item["price"].replace(",", ""))
            carts.put_item(user_id, item["item_id"], values)
        carts.put_ship_to(user_id, cart["ship_to"])


def _load_lockers_and_profiles(workshop: Workshop, data: dict[str, Any]) -> None:
    from tatami_functions.campaigns.repository import CampaignUsersRepository
    from tatami_functions.lockers.locations import Locker
    from tatami_functions.lockers.repository import LockersRepository

    lockers = LockersRepository(workshop.table("LockersTableName"), client=workshop.client)
    for locker in data["lockers"]:
        lockers.put(Locker(**locker))
    profiles = CampaignUsersRepository(workshop.table("CampaignUsersTableName"), client=workshop.client)
    for profile in [dict(entry) for entry in data["campaign_users"]]:
        profiles.put_profile(profile.pop("user_id"), profile)


# Over HTTP, the paths written as the seed writes them (unencoded).
def get(api: str, path: str, **query: Any) -> requests.Response:
    return requests.get(api + quote(path), params=query, timeout=30)


def call(api: str, method: str, path: str, body: Any = None) -> requests.Response:
    return requests.request(method, api + quote(path), json=body, timeout=30)
