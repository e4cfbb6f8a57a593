"""ShardedCounter: write-sharded counters with exactly-once keyed increments and a stream roll-up (seed 004).

Three tables, as `tatami_functions.counters.table` declares them: the shards (partition key
`<name>#<n>`, streamed), the counters (per name a `config` item with the shard count the seed's
formula gave, and a `rollup` item), and the keyed increments' records (partition key `id`, TTL
`expiration`: Powertools Idempotency's layout, which the records keep). Three functions: the writer
(creates and increments counters), the reader (reads them, read-only grants) and the roll-up (the
shards' stream, partial batch failures, bisection, bounded retries, an on-failure queue). The writer and
the reader are one REST handler (`tatami_functions.counters.handler.api`: `PUT /counters/{name}`,
`POST /counters/{name}/increments`, `GET /counters/{name}`) that any API Gateway routes to.

It stands alone: it brings its tables, its function code and its layers
(`infra.constructs.pattern_functions`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.constructs.data_table import DataTable, schema_props
from infra.constructs.monitoring_targets import ReportsLag
from infra.constructs.pattern_functions import PatternFunctions
from infra.constructs.service_function import ServiceFunction, add_environment
from infra.constructs.stream_consumer import stream_failure_queue, subscribe_to_stream
from tatami_functions.common.metric_names import ROLLUP_LAG
from tatami_functions.common.tables import TableSchema
from tatami_functions.counters.settings import CountersSettings
from tatami_functions.counters.table import COUNTERS, IDEMPOTENCY, SHARDS

__all__ = ["CounterSettings", "ShardedCounter"]

HANDLERS = "tatami_functions.counters.handler"
_GET, _PUT, _UPDATE = "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"


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

    def environment(self) -> dict[str, str]:
        """What every counters function reads besides its tables (`CountersSettings`)."""
        return CountersSettings.environment(
            default_target_wcu=self.default_target_wcu,
            safety_factor=self.safety_factor,
            config_cache_seconds=self.config_cache_seconds,
            idempotency_ttl_seconds=self.idempotency_ttl_hours * 3600,
        )


class ShardedCounter(Construct, ReportsLag):
    """Sharded counters: the three tables, the writer, the reader and the roll-up.

    Parameters
    ----------
    settings : defaults for new counters and the roll-up's stream consumption.
    functions : how the functions are made (layers, service name, safe deployments); default: the
        stack's own layers, service ``counters``.
    deletion_protection, replica_regions, removal_policy : for the three tables.

    Attributes: ``shards``, ``counters``, ``idempotency`` (tables); ``writer``, ``reader`` (the REST
    handler, with write and read grants; route to them with ``LambdaIntegration``); ``rollup`` and
    ``rollup_failures``. ``grant_write``/``grant_read`` give a function of yours the same access.

    For example (not run as a doctest)::

        counter = ShardedCounter(stack, "Views")
        resource.add_method("POST", apigw.LambdaIntegration(counter.writer))
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        settings: CounterSettings | None = None,
        functions: PatternFunctions | None = None,
        deletion_protection: bool = True,
        replica_regions: Sequence[str] = (),
        removal_policy: RemovalPolicy = RemovalPolicy.RETAIN,
    ) -> None:
        super().__init__(scope, construct_id)
        settings, functions = settings or CounterSettings(), functions or PatternFunctions()

        def table(construct_id: str, schema: TableSchema) -> DataTable:
            return DataTable(
                self,
                construct_id,
                **schema_props(schema),
                deletion_protection=deletion_protection,
                replica_regions=replica_regions,
                removal_policy=removal_policy,
            )

        self.shards, self.counters = table("Shards", SHARDS), table("Counters", COUNTERS)
        self.idempotency = table("Idempotency", IDEMPOTENCY)
        self.service = functions.service_or("counters")
        self.writer = self._function(
            functions, "WriteFunction", "api", settings, "creates, increments counters"
        )
        self.reader = self._function(functions, "ReadFunction", "api", settings, "reads counters")
        self.rollup = self._function(functions, "RollupFunction", "rollup", settings, "rolls shard writes up")
        self.grant_write(self.writer)
        self.grant_read(self.reader)
        _use(self.rollup, self.counters, "counters_table", _UPDATE)  # only the roll-up writes roll-ups
        self.rollup_failures = self._subscribe_rollup(settings, functions.safe_deployments)
        # Monitoring alarms on the roll-up's lag (ReportsLag).
        self.lag_function, self.lag_metric, self.lag_service = self.rollup, ROLLUP_LAG, self.service

    def grant_write(self, function: lambda_.Function) -> None:
        """What creating and incrementing calls, and the tables' names in `function`'s environment.

        A keyed increment's TransactWriteItems is authorized item by item: UpdateItem on its shard,
        PutItem on its record (GetItem reads a record back when a retry replays it).
        """
        _use(function, self.shards, "shards_table", _UPDATE)
        _use(function, self.counters, "counters_table", _GET, _PUT, _UPDATE)
        _use(function, self.idempotency, "idempotency_table", _GET, _PUT)

    def grant_read(self, function: lambda_.Function) -> None:
        """What reading a counter calls (every shard in one BatchGetItem; its config and roll-up)."""
        _use(function, self.shards, "shards_table", "dynamodb:BatchGetItem")
        _use(function, self.counters, "counters_table", _GET, "dynamodb:Query")

    def _function(
        self, functions: PatternFunctions, construct_id: str, entry: str, settings: CounterSettings, does: str
    ) -> ServiceFunction:
        return ServiceFunction(
            self,
            construct_id,
            layers=functions.layers_in(self),
            service=self.service,
            handler=f"{HANDLERS}.{entry}",
            environment=settings.environment(),  # the tables come with each function's grants
            # A roll-up batch of 1,000 records is a handful of writes; the API answers within 10 s.
            timeout=Duration.seconds(30 if entry == "rollup" else 10),
            description=f"tatami counters: {does}",
        )

    def _subscribe_rollup(self, settings: CounterSettings, safe_deployment: bool) -> sqs.Queue:
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
            safe_deployment=safe_deployment,
        )
        return failures


def _use(function: lambda_.Function, table: dynamodb.TableV2, setting: str, *actions: str) -> None:
    """Grant `actions` on `table` and tell the function its name (`setting` of CountersSettings)."""
    table.grant(function, *actions)
    add_environment(function, CountersSettings.environment(**{setting: table.table_name}))
