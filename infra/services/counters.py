"""The counters service (seed 004's votes example) behind the API: the `ShardedCounter` pattern
(infra/patterns/sharded_counter.py: its tables, writer, reader and roll-up) with the app's routes and
stack outputs.
"""

from __future__ import annotations

from aws_cdk import CfnOutput, Stack
from constructs import Construct

from infra.constructs.api_function import serve_resolver_routes
from infra.constructs.shared import Shared
from infra.patterns import CounterSettings, ShardedCounter
from tatami_functions import stack_outputs

SERVICE = "counters"
WRITES, READS = ("PUT", "POST"), ("GET",)  # the methods of the writer's and the reader's routes


class CountersService(ShardedCounter):
    """The counters service on the shared API; `settings` tune defaults and the roll-up."""

    def __init__(
        self, scope: Construct, construct_id: str, *, shared: Shared, settings: CounterSettings | None = None
    ) -> None:
        super().__init__(
            scope,
            construct_id,
            settings=settings,
            functions=shared.pattern_functions(SERVICE),
            deletion_protection=shared.deletion_protection,
            replica_regions=shared.replica_regions,
        )
        # The resolver's writes and reads go to two functions, so that the reader's grants only read.
        serve_resolver_routes(self.writer, shared=shared, service=SERVICE, methods=WRITES)
        serve_resolver_routes(self.reader, shared=shared, service=SERVICE, methods=READS)
        self._outputs()

    def _outputs(self) -> None:
        stack = Stack.of(self)
        CfnOutput(stack, stack_outputs.OUTPUT_COUNTER_SHARDS_TABLE, value=self.shards.table_name)
        CfnOutput(stack, stack_outputs.OUTPUT_COUNTERS_TABLE, value=self.counters.table_name)
        CfnOutput(stack, stack_outputs.OUTPUT_COUNTER_IDEMPOTENCY_TABLE, value=self.idempotency.table_name)
        CfnOutput(stack, stack_outputs.OUTPUT_COUNTER_ROLLUP_FAILURES, value=self.rollup_failures.queue_url)
