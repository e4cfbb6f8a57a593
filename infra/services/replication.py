"""The replication service (seed 004's lab): `logfile`, `logfile_replica` and the stream function between.

Both tables are declared in `tatami_functions.replication.table`. The replicator consumes the
source's stream with bisection, bounded retries and partial batch failures; batches it gives up on,
and records the replica can never store, go to the failure queue.
"""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import CfnOutput, Duration, Stack
from constructs import Construct

from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from infra.constructs.stream_consumer import stream_failure_queue, subscribe_to_stream
from infra.constructs.table_grants import grant_table
from tatami_functions import stack_outputs
from tatami_functions.replication.settings import ReplicatorSettings
from tatami_functions.replication.table import REPLICA, SOURCE


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


class ReplicationService(Construct):
    """The workshop's logfile (`Source`) and logfile_replica (`Replica`), the replicator (`Function`)
    and its failure queue (`Failures`)."""

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
        self.source = shared.data_table(self, "Source", SOURCE, output=stack_outputs.OUTPUT_LOGFILE_TABLE)
        self.replica = shared.data_table(
            self, "Replica", REPLICA, output=stack_outputs.OUTPUT_LOGFILE_REPLICA_TABLE
        )
        self.failures = stream_failure_queue(self, "Failures", consumer="replicator")
        self.function = self._replicator(shared, settings)
        CfnOutput(Stack.of(self), stack_outputs.OUTPUT_REPLICATION_FAILURES, value=self.failures.queue_url)

    def _replicator(self, shared: Shared, settings: ReplicationSettings) -> ServiceFunction:
        function = ServiceFunction(
            self,
            "Function",
            layers=shared.layers,
            service="replication",
            handler="tatami_functions.replication.handler.handler",
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
