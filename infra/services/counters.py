"""The counters service (seed 004's votes example) behind the API, with a stream roll-up.

Three tables, as `tatami_functions.counters.table` declares them: the shards (partition key
`<name>#<n>`, streamed), the counters (per name a `config` item with the shard count the seed's
formula gave, and a `rollup` item), and the keyed increments' records (partition key `id`, TTL
`expiration`: Powertools Idempotency's layout, which the records keep). Three functions: the writer
(`PUT /counters/{name}`, `POST /counters/{name}/increments`), the reader (`GET /counters/{name}`,
read-only grants) and the roll-up (the shards' stream, partial batch failures, bisection, bounded
retries, an on-failure queue).
"""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import CfnOutput, Duration, Stack
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.monitoring_targets import ReportsLag
from infra.constructs.service_function import ServiceFunction, add_environment
from infra.constructs.shared import Shared
from infra.constructs.stream_consumer import stream_failure_queue, subscribe_to_stream
from tatami_functions import stack_outputs
from tatami_functions.common.metric_names import ROLLUP_LAG
from tatami_functions.counters.settings import CountersSettings
from tatami_functions.counters.table import COUNTERS, IDEMPOTENCY, SHARDS

SERVICE = "counters"
WRITES, READS = ("PUT", "POST"), ("GET",)  # the methods of the writer's and the reader's routes


@dataclass(frozen=True, slots=True)
class CounterSettings:
    """Defaults for new counters and how the roll-up consumes the stream.

    `default_target_wcu`/`safety_factor` size a counter created without a body: shards =
    ceil(ceil(target x 1 KB / 1000) x safety) (seed 004; it suggests 150-200 for a computed 100).
    """

    default_target_wcu: int = 1000
    safety_factor: float = 1.5
    config_cache_seconds: int = 60
    idempotency_ttl_hours: int = 24
    rollup_batch_size: int = 1000
    rollup_window_seconds: int = 1
    rollup_retries: int = 10
    rollup_max_record_age_hours: int = 6

    def __post_init__(self) -> None:
        if self.default_target_wcu < 1:
            raise ValueError(f"default_target_wcu {self.default_target_wcu} must be at least 1")
        if not 1 <= self.safety_factor <= 4:
            raise ValueError(f"safety_factor {self.safety_factor} must be within 1..4 (the seed uses 1.5-2)")
        if not 1 <= self.rollup_batch_size <= 10_000:
            raise ValueError(f"rollup_batch_size {self.rollup_batch_size} must be within 1..10000")
        if not 0 <= self.rollup_retries <= 10_000:
            raise ValueError(f"rollup_retries {self.rollup_retries} must be within 0..10000 (bounded)")
        if not 1 <= self.rollup_max_record_age_hours <= 24:
            raise ValueError("rollup_max_record_age_hours must be within 1..24 (streams keep 24 hours)")


class CountersService(Construct, ReportsLag):
    """The counters service on the shared API; `settings` tune defaults and the roll-up."""

    def __init__(
        self, scope: Construct, construct_id: str, *, shared: Shared, settings: CounterSettings | None = None
    ) -> None:
        super().__init__(scope, construct_id)
        settings = settings or CounterSettings()
        self.shards, self.counters, self.idempotency = self._tables(shared)
        # The resolver's writes and reads go to two functions, so that the reader's grants only read.
        self.writer = self._function(
            shared, "WriteFunction", settings, "creates, increments counters", WRITES
        )
        self.reader = self._function(shared, "ReadFunction", settings, "reads counters", READS)
        self.rollup = self._function(shared, "RollupFunction", settings, "rolls shard writes up")
        self._grant()
        self.rollup_failures = self._subscribe_rollup(settings)
        # Monitoring alarms on the roll-up's lag (ReportsLag).
        self.lag_function, self.lag_metric, self.lag_service = self.rollup, ROLLUP_LAG, SERVICE
        self._outputs()

    def _tables(self, shared: Shared) -> tuple[dynamodb.TableV2, dynamodb.TableV2, dynamodb.TableV2]:
        shards = shared.data_table(self, "Shards", SHARDS, output=stack_outputs.OUTPUT_COUNTER_SHARDS_TABLE)
        counters = shared.data_table(self, "Counters", COUNTERS, output=stack_outputs.OUTPUT_COUNTERS_TABLE)
        idempotency = shared.data_table(
            self, "Idempotency", IDEMPOTENCY, output=stack_outputs.OUTPUT_COUNTER_IDEMPOTENCY_TABLE
        )
        return shards, counters, idempotency

    def _function(
        self,
        shared: Shared,
        construct_id: str,
        settings: CounterSettings,
        does: str,
        methods: tuple[str, ...] | None = None,
    ) -> ServiceFunction:
        """An API function serving the resolver's routes of `methods`, or without them the roll-up."""
        environment = CountersSettings.environment(  # the tables come with each function's grants
            default_target_wcu=settings.default_target_wcu,
            safety_factor=settings.safety_factor,
            config_cache_seconds=settings.config_cache_seconds,
            idempotency_ttl_seconds=settings.idempotency_ttl_hours * 3600,
        )
        description = f"tatami counters: {does}"
        if methods:
            return ApiFunction(
                self,
                construct_id,
                shared=shared,
                service=SERVICE,
                entry="api",
                methods=methods,
                environment=environment,
                timeout=Duration.seconds(10),
                description=description,
            )
        return ServiceFunction(
            self,
            construct_id,
            layers=shared.layers,
            service=SERVICE,
            handler="tatami_functions.counters.handler.rollup",
            environment=environment,
            timeout=Duration.seconds(30),  # a batch of 1,000 records is a handful of writes
            description=description,
        )

    def _grant(self) -> None:
        """Least privilege: only the writer changes shards; only the roll-up writes roll-up items.

        A keyed increment's TransactWriteItems is authorized item by item: UpdateItem on its shard,
        PutItem on its record (GetItem reads a record back when a retry replays it).
        """
        get, put, update = "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"
        _use(self.writer, self.shards, "shards_table", update)
        _use(self.writer, self.counters, "counters_table", get, put, update)
        _use(self.writer, self.idempotency, "idempotency_table", get, put)
        _use(self.reader, self.shards, "shards_table", "dynamodb:BatchGetItem")
        _use(self.reader, self.counters, "counters_table", get, "dynamodb:Query")
        _use(self.rollup, self.counters, "counters_table", update)

    def _subscribe_rollup(self, settings: CounterSettings) -> sqs.Queue:
        failures = stream_failure_queue(self, "RollupFailures", consumer="roll-up")
        subscribe_to_stream(
            self.rollup,
            self.shards,
            failures,
            batch_size=settings.rollup_batch_size,
            # Fewer, larger batches: one roll-up write per counter per batch.
            batching_window=Duration.seconds(settings.rollup_window_seconds),
            retry_attempts=settings.rollup_retries,
            max_record_age=Duration.hours(settings.rollup_max_record_age_hours),
        )
        return failures

    def _outputs(self) -> None:
        CfnOutput(
            Stack.of(self), stack_outputs.OUTPUT_COUNTER_ROLLUP_FAILURES, value=self.rollup_failures.queue_url
        )


def _use(function: ServiceFunction, table: dynamodb.TableV2, setting: str, *actions: str) -> None:
    """Grant `actions` on `table` and tell the function its name (`setting` of CountersSettings)."""
    table.grant(function, *actions)
    add_environment(function, CountersSettings.environment(**{setting: table.table_name}))
