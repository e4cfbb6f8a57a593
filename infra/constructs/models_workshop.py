"""Seed 004's device logs: their table, API function and TTL archiver (models_workshop_storage.py).

The other models of seed 004 (carts, documents, lockers, campaigns) are services of their own
(`infra/services/`); all of them sit in the stack's "Workshop" scope and share its bucket.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from aws_cdk import CfnOutput, Stack
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_s3 as s3
from constructs import Construct

from infra.constructs.models_workshop_storage import LogArchiver
from infra.constructs.service_api import Route
from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_indexes, grant_table
from tatami_functions import stack_outputs
from tatami_functions.devices.settings import DeviceLogsSettings

S, N = dynamodb.AttributeType.STRING, dynamodb.AttributeType.NUMBER
ALL = dynamodb.ProjectionType.ALL
DEVICE_ROUTES = [
    Route("POST", "/devices/{device_id}/logs"),
    Route("GET", "/devices/{device_id}/logs"),
    Route("PATCH", "/devices/{device_id}/logs/{level}/{created_at}"),
    Route("GET", "/operators/{operator}/logs"),
    Route("GET", "/escalations"),
    Route("GET", "/logs/recent"),
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
    """The device logs of seed 004, archived to `bucket`; `log_shards` is N of their random-shard GSI.
    The stack builds it in its "Workshop" scope as "Default", so its resources keep their logical IDs.

    >>> ModelsWorkshop(workshop, "Default", shared=shared, bucket=bucket, log_shards=10)  # doctest: +SKIP
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        shared: Shared,
        bucket: s3.IBucket,
        log_shards: int = 10,
        log_retention_days: int = 30,
    ) -> None:
        super().__init__(scope, construct_id)
        self.shared = shared
        self.bucket = bucket
        self.device_logs = self._device_logs(log_shards, log_retention_days)

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
