"""What monitoring watches in a stack, found by walking its construct tree.

The services' constructs are not edited to be monitored: every Lambda function, every DynamoDB table
with its global secondary indexes, every stream consumer with its on-failure queue, the REST API and
the constructs that emit an alarmed custom metric are found here, so a service added to the stack is
watched without a line more.

>>> Targets.of(tatami_stack).functions[0].name  # doctest: +SKIP
'Counters-WriteFunction'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from aws_cdk import Stack
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.constructs.zorder_index import ZOrderIndex
from tatami_functions.common.metric_names import EXPORT_FAILURES
from zindex.lambda_handler import LAG_METRIC


class ReportsLag:
    """Mixed into the construct whose `lag_function` emits `lag_metric` (seconds behind its stream, e.g.
    the counters' roll-up): monitoring alarms on it. A marker, as `CountsExportFailures` is."""

    lag_function: lambda_.Function
    lag_metric: str
    lag_service: str  # the function's service (its metrics' `service` dimension)


class CountsExportFailures:
    """Mixed into the construct whose `function` counts each failed export (`EXPORT_FAILURES`): monitoring
    alarms on it. A marker, because the services' constructs (infra/services) build on this package and
    it cannot import them back."""

    function: lambda_.Function
    service: str  # the function's service (its metrics' `service` dimension)


@dataclass(frozen=True)
class Watched:
    """A construct with its name in alarms and on the dashboard (its path below the stack)."""

    name: str
    construct: Any


@dataclass(frozen=True)
class WatchedTable:
    name: str
    table: dynamodb.TableV2
    billing_mode: str
    indexes: tuple[str, ...]


@dataclass(frozen=True)
class ServiceMetric:
    """A custom metric a function emits (Powertools, namespace `Tatami`, dimension `service`)."""

    name: str  # e.g. Places-ZIndex: what the alarm is called after
    metric: str  # e.g. IndexLagSeconds
    service: str


@dataclass
class Targets:
    functions: list[Watched] = field(default_factory=list)
    consumers: set[str] = field(default_factory=set)  # names of the functions reading a stream
    failure_queues: list[Watched] = field(default_factory=list)
    tables: list[WatchedTable] = field(default_factory=list)
    apis: list[Watched] = field(default_factory=list)
    lags: list[ServiceMetric] = field(default_factory=list)  # Z-index and roll-up lags, in seconds
    export_failures: list[ServiceMetric] = field(default_factory=list)

    @classmethod
    def of(cls, stack: Stack) -> Targets:
        targets = cls()
        queues = {queue.queue_arn: queue for queue in _all(stack, sqs.Queue)}
        for function in _all(stack, lambda_.Function):
            watched = Watched(_name(stack, function), function)
            targets.functions.append(watched)
            for mapping in _all(function, lambda_.EventSourceMapping):
                targets.consumers.add(watched.name)
                queue = queues.get(_on_failure_arn(mapping))
                if queue is not None:
                    targets.failure_queues.append(Watched(_name(stack, queue), queue))
        targets.tables = [_table(stack, table) for table in _all(stack, dynamodb.TableV2)]
        targets.apis = [Watched(_name(stack, api), api) for api in _all(stack, apigw.RestApi)]
        targets._find_service_metrics(stack)
        return targets

    def _find_service_metrics(self, stack: Stack) -> None:
        for index in _all(stack, ZOrderIndex):
            self.lags.append(ServiceMetric(_name(stack, index), LAG_METRIC, index.maintainer.service))
        for reporter in _all(stack, ReportsLag):
            name = _name(stack, reporter.lag_function)
            self.lags.append(ServiceMetric(name, reporter.lag_metric, reporter.lag_service))
        for export in _all(stack, CountsExportFailures):
            self.export_failures.append(ServiceMetric(_name(stack, export), EXPORT_FAILURES, export.service))


def _all(scope: Construct, kind: type[Any]) -> list[Any]:
    return [construct for construct in scope.node.find_all() if isinstance(construct, kind)]


def _name(stack: Stack, construct: Construct) -> str:
    """The construct's path below the stack, dash-separated: `Places/ZIndex/Maintainer` ->
    `Places-ZIndex-Maintainer` (unique in the stack, readable in an alarm name)."""
    return construct.node.path.removeprefix(f"{stack.node.path}/").replace("/", "-")


def _on_failure_arn(mapping: lambda_.EventSourceMapping) -> str | None:
    config = mapping.node.default_child.destination_config  # type: ignore[union-attr]
    on_failure = getattr(config, "on_failure", None)
    return getattr(on_failure, "destination", None)


def _table(stack: Stack, table: dynamodb.TableV2) -> WatchedTable:
    resource = table.node.default_child
    # TableV2 renders its indexes lazily; resolving the L1 property lists them as the template will.
    indexes = stack.resolve(resource.global_secondary_indexes) or []  # type: ignore[union-attr]
    return WatchedTable(
        _name(stack, table),
        table,
        str(resource.billing_mode),  # type: ignore[union-attr]
        tuple(index["indexName"] for index in indexes),
    )
