"""Seed 004's data models: device logs, carts, documents, pick-up lockers, campaign targeting.

A table per model, drawn as the seed draws it (DESIGN.md says why not one overloaded table), one API
function per model on the shared REST API, and one bucket (models_workshop_storage.py) for large
document bodies and the device logs' TTL archive.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from aws_cdk import CfnOutput, Stack
from aws_cdk import aws_dynamodb as dynamodb
from constructs import Construct

from infra.constructs.buckets import WorkshopBucket, grant_objects
from infra.constructs.models_workshop_storage import LogArchiver
from infra.constructs.service_api import Route
from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_indexes, grant_table
from tatami_functions import stack_outputs
from tatami_functions.campaigns.settings import CampaignsSettings
from tatami_functions.carts.settings import CartsSettings
from tatami_functions.devices.settings import DeviceLogsSettings
from tatami_functions.documents.settings import DocumentsSettings
from tatami_functions.lockers.settings import LockersSettings

S, N = dynamodb.AttributeType.STRING, dynamodb.AttributeType.NUMBER
ALL, KEYS_ONLY, INCLUDE = (
    dynamodb.ProjectionType.ALL,
    dynamodb.ProjectionType.KEYS_ONLY,
    dynamodb.ProjectionType.INCLUDE,
)
DEVICE_ROUTES = [
    Route("POST", "/devices/{device_id}/logs"),
    Route("GET", "/devices/{device_id}/logs"),
    Route("PATCH", "/devices/{device_id}/logs/{level}/{created_at}"),
    Route("GET", "/operators/{operator}/logs"),
    Route("GET", "/escalations"),
    Route("GET", "/logs/recent"),
]
CART_ROUTES = [
    Route("GET", "/users/{user_id}/cart"),
    Route("GET", "/users/{user_id}/cart/items"),
    Route("PUT", "/users/{user_id}/cart/items/{item_id}"),
    Route("DELETE", "/users/{user_id}/cart/items/{item_id}"),
    Route("GET", "/users/{user_id}/cart/items/{item_id}/{field}"),
    Route("PUT", "/users/{user_id}/cart/items/{item_id}/{field}"),
    Route("PUT", "/users/{user_id}/cart/ship-to"),
    Route("GET", "/carts/by-item/{item_id}"),
    Route("GET", "/carts/by-prefecture/{state}"),
]
DOCUMENT_ROUTES = [
    Route("GET", "/users/{user_id}/documents"),
    *(
        Route(method, "/users/{user_id}/documents/{report_id}")
        for method in ("PUT", "GET", "PATCH", "DELETE")
    ),
]
LOCKER_ROUTES = [
    Route("GET", "/lockers", required_query=("state",)),
    *(Route(method, "/lockers/{locker_id}") for method in ("GET", "PUT", "DELETE")),
]
CAMPAIGN_ROUTES = [
    Route("GET", "/campaigns/candidates"),
    Route("GET", "/campaigns/users/{user_id}"),
    Route("PUT", "/campaigns/users/{user_id}"),
]


def key(name: str, kind: dynamodb.AttributeType = S) -> dynamodb.Attribute:
    return dynamodb.Attribute(name=name, type=kind)


def index(
    name: str,
    partition: dynamodb.Attribute,
    sort: dynamodb.Attribute,
    projection: dynamodb.ProjectionType = ALL,
    include: Sequence[str] | None = None,
) -> dynamodb.GlobalSecondaryIndexPropsV2:
    return dynamodb.GlobalSecondaryIndexPropsV2(
        index_name=name,
        partition_key=partition,
        sort_key=sort,
        projection_type=projection,
        non_key_attributes=list(include) if include else None,
    )


class ModelsWorkshop(Construct):
    """The five models of seed 004; `log_shards` is N of the device logs' random-shard GSI.

    >>> ModelsWorkshop(stack, "Workshop", shared=shared, log_shards=10)  # doctest: +SKIP
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        shared: Shared,
        log_shards: int = 10,
        log_retention_days: int = 30,
    ) -> None:
        super().__init__(scope, construct_id)
        self.shared = shared
        self.bucket = WorkshopBucket(self, "Storage").bucket
        CfnOutput(self, "BucketName", key=stack_outputs.OUTPUT_WORKSHOP_BUCKET, value=self.bucket.bucket_name)
        self.device_logs = self._device_logs(log_shards, log_retention_days)
        self.carts = self._carts()
        self.documents = self._documents()
        self.lockers = self._lockers()
        self.campaign_users = self._campaigns()

    def _device_logs(self, shards: int, retention_days: int) -> dynamodb.TableV2:
        level_time = key("level_with_created_at")  # the seed's composite "WARNING#<created_at>"
        escalated = index("GSI_escalated_to_level_with_created_at", key("escalated_to"), level_time)  # sparse
        indexes = [
            index("GSI_operator_created_at", key("operator"), key("created_at")),
            escalated,
            index("GSI_shard_id_created_at", key("shard_id", N), key("created_at")),
        ]
        table = self._table(
            "DeviceLogs",
            stack_outputs.OUTPUT_DEVICE_LOGS_TABLE,
            key("device_id"),
            level_time,
            *indexes,
            time_to_live_attribute="expires_at",
            dynamo_stream=dynamodb.StreamViewType.OLD_IMAGE,  # the archiver needs the deleted item
        )
        settings = DeviceLogsSettings.environment(
            table=table.table_name, shards=shards, retention_days=retention_days
        )
        function = self._function("Devices", DEVICE_ROUTES, settings)
        grant_table(function, table, "PutItem", "UpdateItem", "Query")
        grant_indexes(function, table, [i.index_name for i in indexes], "Query")
        grant_indexes(function, table, [escalated.index_name], "Scan")  # every escalation: the sparse GSI
        self.archiver = LogArchiver(self, "LogArchiver", shared=self.shared, table=table, bucket=self.bucket)
        return table

    def _carts(self) -> dynamodb.TableV2:
        # Overloaded: the GSI's partition is the row's path (ship_to#state, cart_items#added_at#<item>).
        by_row = index("GSI_sort_key_gsi_sk", key("sort_key"), key("gsi_sk"), KEYS_ONLY)
        table = self._table(
            "Carts", stack_outputs.OUTPUT_CARTS_TABLE, key("user_id"), key("sort_key"), by_row
        )
        function = self._function("Carts", CART_ROUTES, CartsSettings.environment(table=table.table_name))
        # An item's rows are put or deleted together (one transaction); one value is updated alone.
        grant_table(function, table, "GetItem", "Query", "PutItem", "UpdateItem", "DeleteItem")
        grant_indexes(function, table, [by_row.index_name], "Query")
        return table

    def _documents(self) -> dynamodb.TableV2:
        # The list path projects summary (and the key, report_id), never the body.
        status_date = key("status_with_created_on")
        by_user = index(
            "GSI_user_id_status_with_created_on", key("user_id"), status_date, INCLUDE, ["summary"]
        )
        table = self._table(
            "Documents", stack_outputs.OUTPUT_DOCUMENTS_TABLE, key("report_id"), None, by_user
        )
        settings = DocumentsSettings.environment(table=table.table_name, bucket=self.bucket.bucket_name)
        function = self._function("Documents", DOCUMENT_ROUTES, settings)
        grant_table(function, table, "GetItem", "PutItem", "UpdateItem", "DeleteItem")
        grant_indexes(function, table, [by_user.index_name], "Query")
        # Bodies are written, read and deleted by key. A delete on the versioned bucket leaves the
        # body recoverable for 30 days; s3:DeleteObjectVersion (a permanent delete) is not granted.
        grant_objects(function, self.bucket, "documents/*", "s3:GetObject", "s3:PutObject", "s3:DeleteObject")
        return table

    def _lockers(self) -> dynamodb.TableV2:
        # Prefecture, then the area path and locker id: "千代田区#紀尾井町#<locker id>".
        table = self._table("Lockers", stack_outputs.OUTPUT_LOCKERS_TABLE, key("state"), key("location"))
        settings = LockersSettings.environment(table=table.table_name)
        function = self._function("Lockers", LOCKER_ROUTES, settings)
        # A move puts the locker and its pointer and deletes the old row together (one transaction).
        grant_table(function, table, "GetItem", "Query", "PutItem", "DeleteItem")
        return table

    def _campaigns(self) -> dynamodb.TableV2:
        # One selective GSI per condition; the user id sorts each, so they can be intersected.
        user = key("user_id")
        conditions = [
            index("GSI_prefecture", key("prefecture"), user, KEYS_ONLY),
            index("GSI_birth_month", key("birth_month", N), user, KEYS_ONLY),
            index("GSI_last_order_month", key("last_order_month", N), user, KEYS_ONLY),
        ]
        table = self._table(
            "CampaignUsers", stack_outputs.OUTPUT_CAMPAIGN_USERS_TABLE, user, None, *conditions
        )
        settings = CampaignsSettings.environment(table=table.table_name)
        function = self._function("Campaigns", CAMPAIGN_ROUTES, settings)
        grant_table(function, table, "GetItem", "PutItem")
        grant_indexes(function, table, [i.index_name for i in conditions], "Query")
        return table

    def _table(
        self,
        construct_id: str,
        output_key: str,
        partition: dynamodb.Attribute,
        sort: dynamodb.Attribute | None,
        *indexes: dynamodb.GlobalSecondaryIndexPropsV2,
        **props: Any,
    ) -> dynamodb.TableV2:
        table = self.shared.data_table(
            self,
            construct_id,
            partition_key=partition,
            sort_key=sort,
            global_secondary_indexes=list(indexes) or None,
            **props,
        )
        CfnOutput(Stack.of(self), output_key, value=table.table_name)
        return table

    def _function(
        self, model: str, routes: Sequence[Route], environment: Mapping[str, str]
    ) -> ServiceFunction:
        """The model's API function on `routes`, with `environment` (its settings declaration's); the
        caller grants what it calls on its table."""
        function = ServiceFunction(
            self,
            f"{model}Function",
            layers=self.shared.layers,
            service=f"models-{model.lower()}",
            handler=f"tatami_functions.{model.lower()}.handler.handler",
            packages=[model.lower()],
            environment=environment,
            description=f"The {model.lower()} model of seed 004 (REST routes)",
        )
        self.shared.page_tokens.grant(function)
        self.shared.api.add_routes(function, routes)
        return function
