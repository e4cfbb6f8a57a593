"""A DynamoDB table with production defaults, used by every service.

Defaults: on-demand billing, point-in-time recovery, deletion protection, AWS-managed encryption,
retained on stack deletion. `TableCapacity` switches to provisioned capacity with auto scaling and
can pre-warm a table before a big load (seed 003: a fresh table throttles a bulk load until
DynamoDB has split it into enough partitions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aws_cdk import RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from constructs import Construct

from tatami_functions.common.tables import IndexSchema, Key, TableSchema


@dataclass(frozen=True, slots=True)
class TableCapacity:
    """How a table pays for throughput.

    On-demand unless `provisioned` is set; then reads and writes auto scale between the bounds,
    aiming at `target_utilization` percent. `warm_reads`/`warm_writes` (units per second) ask
    DynamoDB to pre-warm the table so a planned load does not start against cold partitions.
    """

    provisioned: bool = False
    min_read: int = 5
    max_read: int = 1000
    min_write: int = 5
    max_write: int = 1000
    target_utilization: int = 70
    warm_reads: int | None = None
    warm_writes: int | None = None

    def __post_init__(self) -> None:
        if self.min_read > self.max_read:
            raise ValueError(f"min_read {self.min_read} > max_read {self.max_read}")
        if self.min_write > self.max_write:
            raise ValueError(f"min_write {self.min_write} > max_write {self.max_write}")
        if not 20 <= self.target_utilization <= 90:
            raise ValueError(f"target_utilization {self.target_utilization} must be within 20..90")

    def billing(self) -> dynamodb.Billing:
        if not self.provisioned:
            return dynamodb.Billing.on_demand()
        return dynamodb.Billing.provisioned(
            read_capacity=dynamodb.Capacity.autoscaled(
                min_capacity=self.min_read,
                max_capacity=self.max_read,
                target_utilization_percent=self.target_utilization,
            ),
            write_capacity=dynamodb.Capacity.autoscaled(
                min_capacity=self.min_write,
                max_capacity=self.max_write,
                target_utilization_percent=self.target_utilization,
            ),
        )

    def warm_throughput(self) -> dynamodb.WarmThroughput | None:
        if self.warm_reads is None and self.warm_writes is None:
            return None
        return dynamodb.WarmThroughput(
            read_units_per_second=self.warm_reads, write_units_per_second=self.warm_writes
        )


class DataTable(dynamodb.TableV2):
    """`TableV2` with the production defaults above; any other TableV2 prop passes through.

    For example (not run as a doctest)::

        DataTable(stack, "Orders", partition_key=dynamodb.Attribute(name="pk",
                  type=dynamodb.AttributeType.STRING))
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        capacity: TableCapacity | None = None,
        replica_regions: Sequence[str] = (),
        deletion_protection: bool = True,
        removal_policy: RemovalPolicy = RemovalPolicy.RETAIN,
        **table_props: Any,
    ) -> None:
        capacity = capacity or TableCapacity()
        super().__init__(
            scope,
            construct_id,
            billing=capacity.billing(),
            warm_throughput=capacity.warm_throughput(),
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            deletion_protection=deletion_protection,
            encryption=dynamodb.TableEncryptionV2.aws_managed_key(),
            # Replicas need a stack with an explicit region (global tables are regional resources).
            replicas=[dynamodb.ReplicaTableProps(region=region) for region in replica_regions] or None,
            removal_policy=removal_policy,
            **table_props,
        )

    @classmethod
    def from_schema(cls, scope: Construct, construct_id: str, schema: TableSchema, **props: Any) -> DataTable:
        """The table a service declares (`tatami_functions.<service>.table`): keys, GSIs, TTL, stream.
        `props` are DataTable's own (capacity, replicas, deletion protection) or other TableV2 props."""
        return cls(scope, construct_id, **schema_props(schema), **props)


def schema_props(schema: TableSchema) -> dict[str, Any]:
    """A declared table's keys, GSIs, TTL attribute and stream as TableV2 props."""
    return {
        "partition_key": _attribute(schema.partition_key),
        "sort_key": _attribute(schema.sort_key) if schema.sort_key else None,
        "global_secondary_indexes": [_index(index) for index in schema.indexes] or None,
        "time_to_live_attribute": schema.ttl_attribute,
        "dynamo_stream": dynamodb.StreamViewType(schema.stream) if schema.stream else None,
    }


def _attribute(key: Key) -> dynamodb.Attribute:
    return dynamodb.Attribute(name=key.name, type=dynamodb.AttributeType(_TYPES[key.type]))


_TYPES = {"S": "STRING", "N": "NUMBER", "B": "BINARY"}


def _index(index: IndexSchema) -> dynamodb.GlobalSecondaryIndexPropsV2:
    return dynamodb.GlobalSecondaryIndexPropsV2(
        index_name=index.name,
        partition_key=_attribute(index.partition_key),
        sort_key=_attribute(index.sort_key) if index.sort_key else None,
        projection_type=dynamodb.ProjectionType(index.projection),
        non_key_attributes=list(index.include) if index.include else None,
    )
