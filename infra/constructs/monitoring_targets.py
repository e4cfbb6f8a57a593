"""What monitoring watches in a stack, found by walking its construct tree, each part with its service.

The services' constructs are not edited to be monitored: every Lambda function, every stream consumer
with its table and on-failure queue, every DynamoDB table with its global secondary indexes, every
scheduled rule with its dead-letter queue, the REST API and the constructs that emit an alarmed custom
metric are found here, so a service added to the stack is watched without a line more. A part belongs
to the service whose functions sit beside it (`ServiceFunction.service`, the service package's name);
the parts every service shares (the API) belong to none.

For example (not run as a doctest)::

    Targets.of(tatami_stack).functions[0].name
    # -> 'Counters-WriteFunction'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from aws_cdk import Duration, Stack
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_lambda as lambda_

from infra.constructs.service_function import ServiceFunction
from infra.constructs.watched_parts import (
    PartsTree,
    ServiceMetric,
    Watched,
    WatchedConsumer,
    WatchedTable,
    find_all,
    path_name,
)
from tatami_functions.common.metric_names import EXPORT_AGE, EXPORT_FAILURES
from zindex.status import LAG_METRIC, UNENCODABLE_METRIC


class ReportsIndexLag:
    """Mixed into the construct whose `maintainer` runs the Z-index engine's maintainer, which emits its
    lag and its unencodable items (`zindex.lambda_handler`): monitoring alarms on both. A marker, because
    the patterns (infra/patterns) build on this package and it cannot import them back."""

    maintainer: ServiceFunction


class ReportsLag:
    """Mixed into the construct whose `lag_function` emits `lag_metric` (seconds behind its stream, e.g.
    the counters' roll-up): monitoring alarms on it. A marker, as `CountsExportFailures` is."""

    lag_function: lambda_.Function
    lag_metric: str
    lag_service: str  # the function's service (its metrics' `service` dimension)


class CountsExportFailures:
    """Mixed into the construct whose `function` counts each failed export (`EXPORT_FAILURES`) and reports
    how old the newest exported data is (`EXPORT_AGE`): monitoring alarms on both, the age past
    `export_stale_after`. A marker, because the services' constructs (infra/services) build on this
    package and it cannot import them back."""

    function: lambda_.Function
    service: str  # the function's service (its metrics' `service` dimension)
    export_stale_after: Duration


@dataclass
class Targets:
    functions: list[Watched] = field(default_factory=list)
    consumers: list[WatchedConsumer] = field(default_factory=list)
    failure_queues: list[Watched] = field(default_factory=list)  # on-failure and dead-letter queues
    tables: list[WatchedTable] = field(default_factory=list)
    rules: list[Watched] = field(default_factory=list)  # scheduled rules (their FailedInvocations)
    apis: list[Watched] = field(default_factory=list)
    lags: list[ServiceMetric] = field(default_factory=list)  # Z-index and roll-up lags, in seconds
    unencodable: list[ServiceMetric] = field(default_factory=list)  # items a Z index left out
    export_failures: list[ServiceMetric] = field(default_factory=list)
    export_ages: list[ServiceMetric] = field(default_factory=list)

    @classmethod
    def of(cls, stack: Stack) -> Targets:
        targets, tree = cls(), PartsTree(stack)
        targets.functions = [tree.watched(function) for function in find_all(stack, lambda_.Function)]
        targets.consumers = [
            tree.consumer(watched, mapping)
            for watched in targets.functions
            for mapping in find_all(watched.construct, lambda_.EventSourceMapping)
        ]
        targets.rules = [tree.watched(rule) for rule in find_all(stack, events.Rule)]
        targets.failure_queues = [c.failures for c in targets.consumers if c.failures] + [
            queue for rule in targets.rules if (queue := tree.dead_letter_queue(rule.construct))
        ]
        targets.tables = [tree.table(table) for table in find_all(stack, dynamodb.TableV2)]
        targets.apis = [tree.watched(api) for api in find_all(stack, apigw.RestApi)]
        targets._find_service_metrics(stack)
        return targets

    def services(self) -> list[str]:
        """Every service with a part watched here, sorted."""
        parts: list[Watched | WatchedTable] = [
            *self.functions,
            *self.failure_queues,
            *self.rules,
            *self.tables,
        ]
        return sorted({part.service for part in parts if part.service})

    def of_service(self, service: str | None) -> Targets:
        """The parts of `service` (None: the parts no service owns, the API among them)."""

        def owned[T: Watched | WatchedTable | ServiceMetric](parts: list[T]) -> list[T]:
            return [part for part in parts if part.service == service]

        return Targets(
            functions=owned(self.functions),
            consumers=[consumer for consumer in self.consumers if consumer.function.service == service],
            failure_queues=owned(self.failure_queues),
            tables=owned(self.tables),
            rules=owned(self.rules),
            apis=self.apis if service is None else [],
            lags=owned(self.lags),
            unencodable=owned(self.unencodable),
            export_failures=owned(self.export_failures),
            export_ages=owned(self.export_ages),
        )

    def _find_service_metrics(self, stack: Stack) -> None:
        for index in find_all(stack, ReportsIndexLag):
            service = index.maintainer.service
            self.lags.append(ServiceMetric(path_name(stack, index), LAG_METRIC, service))
            self.unencodable.append(ServiceMetric(path_name(stack, index), UNENCODABLE_METRIC, service))
        for reporter in find_all(stack, ReportsLag):
            name = path_name(stack, reporter.lag_function)
            self.lags.append(ServiceMetric(name, reporter.lag_metric, reporter.lag_service))
        for export in find_all(stack, CountsExportFailures):
            name, stale_after = path_name(stack, export), export.export_stale_after.to_seconds()
            self.export_failures.append(ServiceMetric(name, EXPORT_FAILURES, export.service))
            self.export_ages.append(ServiceMetric(name, EXPORT_AGE, export.service, stale_after))
