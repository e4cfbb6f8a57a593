"""Seed 004's hands-on labs: the adjacency list, the employees table and stream replication.

`InvoicesLab` and `EmployeesLab` are a table and one API function each (package
`tatami_functions.labs`, which reuses `tatami_functions.common.paging` for pages and read stats).
`StreamReplica` copies every change of a source table (the workshop's `logfile`) into a replica
(`logfile_replica`) through a stream function with bisection, bounded retries, partial batch failures
and an on-failure queue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from aws_cdk import CfnOutput, Duration, Stack
from aws_cdk import aws_dynamodb as dynamodb
from constructs import Construct

from infra.constructs.service_api import Route
from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from infra.constructs.stream_consumer import stream_failure_queue, subscribe_to_stream
from infra.constructs.table_grants import grant_indexes, grant_table
from tatami_functions import stack_outputs
from tatami_functions.employees.settings import EmployeesSettings
from tatami_functions.invoices.settings import InvoicesSettings
from tatami_functions.replication.settings import ReplicatorSettings

S = dynamodb.AttributeType.STRING
INVOICE_ROUTES = [
    *(Route(method, "/invoices/{id}") for method in ("GET", "PUT", "DELETE")),
    Route("GET", "/customers/{id}/invoices"),  # {id}: the orders model owns /customers/{id}
    Route("GET", "/bills/{id}"),
]
EMPLOYEE_ROUTES = [
    Route("GET", "/employees"),
    Route("GET", "/employees/managers"),
    *(Route(method, "/employees/{id}") for method in ("GET", "PUT", "DELETE")),
]


def key(name: str) -> dynamodb.Attribute:
    return dynamodb.Attribute(name=name, type=S)


def index(
    name: str, partition: str, sort: str | None = None, include: Sequence[str] | None = None
) -> dynamodb.GlobalSecondaryIndexPropsV2:
    return dynamodb.GlobalSecondaryIndexPropsV2(
        index_name=name,
        partition_key=key(partition),
        sort_key=key(sort) if sort else None,
        projection_type=dynamodb.ProjectionType.INCLUDE if include else dynamodb.ProjectionType.ALL,
        non_key_attributes=list(include) if include else None,
    )


def lab_api(
    scope: Construct,
    shared: Shared,
    lab: str,
    table: dynamodb.TableV2,
    environment: Mapping[str, str],
    routes: list[Route],
) -> ServiceFunction:
    """The lab's API function on the shared REST API (`environment`: its settings declaration's): it
    Queries the table and its indexes, and writes versioned partitions in transactions of Puts and
    Deletes."""
    function = ServiceFunction(
        scope,
        "Function",
        layers=shared.layers,
        service=f"labs-{lab}",
        handler=f"tatami_functions.{lab}.handler.handler",
        packages=[lab],
        environment=environment,
        description=f"The {lab} lab of seed 004 (REST routes)",
    )
    grant_table(function, table, "Query", "PutItem", "DeleteItem")
    shared.page_tokens.grant(function)
    shared.api.add_routes(function, routes)
    return function


class InvoicesLab(Construct):
    """InvoiceAndBilling: the adjacency list (PK, SK) and its inverted index GSI_1 (SK, PK)."""

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.table = shared.data_table(
            self,
            "Table",
            partition_key=key("PK"),
            sort_key=key("SK"),
            global_secondary_indexes=[index("GSI_1", "SK", "PK")],
        )
        CfnOutput(Stack.of(self), stack_outputs.OUTPUT_INVOICES_TABLE, value=self.table.table_name)
        environment = InvoicesSettings.environment(table=self.table.table_name)
        self.function = lab_api(self, shared, "invoices", self.table, environment, INVOICE_ROUTES)
        grant_indexes(self.function, self.table, ["GSI_1"], "Query")  # the inverted index


class EmployeesLab(Construct):
    """employees: GSI_1 overloaded, GSI_2 sparse on is_manager, GSI_3 `state#`/`<city>#<dept>`."""

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.table = shared.data_table(
            self,
            "Table",
            partition_key=key("PK"),
            sort_key=key("SK"),
            global_secondary_indexes=[
                index("GSI_1", "GSI_1_PK", "GSI_1_SK"),
                index("GSI_2", "is_manager", "name"),  # only managers' master items carry is_manager
                index("GSI_3", "GSI_3_PK", "GSI_3_SK"),
            ],
        )
        CfnOutput(Stack.of(self), stack_outputs.OUTPUT_EMPLOYEES_TABLE, value=self.table.table_name)
        environment = EmployeesSettings.environment(table=self.table.table_name)
        self.function = lab_api(self, shared, "employees", self.table, environment, EMPLOYEE_ROUTES)
        grant_table(self.function, self.table, "GetItem")  # one employee by id
        grant_indexes(self.function, self.table, ["GSI_1", "GSI_2", "GSI_3"], "Query")


@dataclass(frozen=True, slots=True)
class ReplicationSettings:
    """How the replicator consumes the source's stream, and how long tombstones stay."""

    batch_size: int = 100
    window_seconds: int = 1
    retry_attempts: int = 10
    max_record_age_hours: int = 23  # streams keep records 24 hours
    tombstone_hours: int = 48  # longer than any record older than the tombstone can still arrive

    def __post_init__(self) -> None:
        if not 1 <= self.batch_size <= 10_000:
            raise ValueError(f"batch_size {self.batch_size} must be within 1..10000")
        if not 0 <= self.retry_attempts <= 10_000:
            raise ValueError(f"retry_attempts {self.retry_attempts} must be within 0..10000 (bounded)")
        if not 1 <= self.max_record_age_hours <= 24:
            raise ValueError("max_record_age_hours must be within 1..24 (streams keep 24 hours)")
        if self.tombstone_hours <= self.max_record_age_hours:
            raise ValueError("tombstone_hours must exceed max_record_age_hours, or a late record resurrects")


class StreamReplica(Construct):
    """The workshop's logfile and logfile_replica, and the stream function between them."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        shared: Shared,
        settings: ReplicationSettings | None = None,
    ) -> None:
        super().__init__(scope, construct_id)
        settings = settings or ReplicationSettings()
        host_index = index("GSI_1", "GSI_1_PK", include=["bytessent", "requestid", "host"])
        self.source = shared.data_table(
            self,
            "Source",
            partition_key=key("PK"),
            global_secondary_indexes=[host_index],
            dynamo_stream=dynamodb.StreamViewType.NEW_IMAGE,  # REMOVE records carry the keys anyway
        )
        self.replica = shared.data_table(
            self,
            "Replica",
            partition_key=key("PK"),
            global_secondary_indexes=[host_index],
            time_to_live_attribute="_rep_expires",  # tombstones of deleted items (labs/replication)
        )
        self.failures = stream_failure_queue(self, "Failures", consumer="replicator")
        self.function = self._replicator(shared, settings)
        for output_key, value in (
            (stack_outputs.OUTPUT_LOGFILE_TABLE, self.source.table_name),
            (stack_outputs.OUTPUT_LOGFILE_REPLICA_TABLE, self.replica.table_name),
            (stack_outputs.OUTPUT_REPLICATION_FAILURES, self.failures.queue_url),
        ):
            CfnOutput(Stack.of(self), output_key, value=value)

    def _replicator(self, shared: Shared, settings: ReplicationSettings) -> ServiceFunction:
        function = ServiceFunction(
            self,
            "Function",
            layers=shared.layers,
            service="labs-replication",
            handler="tatami_functions.replication.handler.handler",
            packages=["replication"],
            environment=ReplicatorSettings.environment(
                table=self.replica.table_name,
                failure_queue_url=self.failures.queue_url,
                tombstone_seconds=settings.tombstone_hours * 3600,
            ),
            timeout=Duration.seconds(60),
            description="Replicates logfile into logfile_replica (conditional on the stream's order)",
        )
        grant_table(function, self.replica, "PutItem")  # conditional puts are all it does
        self.failures.grant(function, "sqs:SendMessage")  # records the replica can never store are parked
        subscribe_to_stream(
            function,
            self.source,
            self.failures,
            batch_size=settings.batch_size,
            batching_window=Duration.seconds(settings.window_seconds),
            retry_attempts=settings.retry_attempts,
            max_record_age=Duration.hours(settings.max_record_age_hours),
        )
        return function
