"""The parts monitoring watches, and the stack's construct tree asked about them: which service a part
belongs to (the service of the functions that sit beside it: `ServiceFunction.service`, the service
package's name; none for what several services share) and what refers to what (a mapping to its table
and on-failure queue, a rule to its dead-letter queue).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from aws_cdk import Stack
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sqs as sqs
from constructs import Construct, IConstruct

from infra.constructs.service_function import ServiceFunction


@dataclass(frozen=True)
class Watched:
    """A construct with its name in alarms and on dashboards (its path below the stack) and its service
    (None: shared by every service)."""

    name: str
    construct: Any
    service: str | None


@dataclass(frozen=True)
class WatchedConsumer:
    """A function reading a table's stream; `filtered`: its mapping lets only some records through."""

    function: Watched
    table: dynamodb.TableV2
    filtered: bool
    failures: Watched | None  # its on-failure queue


@dataclass(frozen=True)
class WatchedTable:
    name: str
    table: dynamodb.TableV2
    billing_mode: str
    indexes: tuple[str, ...]
    service: str | None


@dataclass(frozen=True)
class ServiceMetric:
    """A custom metric a function emits (Powertools: its stage's namespace, dimension `service`)."""

    name: str  # e.g. Places-ZIndex: what the alarm is called after
    metric: str  # e.g. IndexLagSeconds
    service: str
    threshold: float | None = None  # where one part sets its own (the export's staleness)


class PartsTree:
    """The stack's construct tree, asked which service a part belongs to and what refers to what."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.services = {f.node.path: f.service for f in find_all(stack, ServiceFunction)}
        self.queues = {self._target(queue.queue_arn): queue for queue in find_all(stack, sqs.Queue)}
        self.tables = {
            self._target(table.table_stream_arn): table
            for table in find_all(stack, dynamodb.TableV2)
            if table.table_stream_arn
        }

    def watched(self, construct: Construct) -> Watched:
        return Watched(path_name(self.stack, construct), construct, self.service_of(construct))

    def service_of(self, construct: Construct) -> str | None:
        """The service of the functions in the nearest scope (the construct or an ancestor) holding any;
        None when that scope holds several services' (the stack, a shared construct)."""
        for scope in _scopes(construct):
            prefix = scope.node.path + "/"
            found = {
                s for path, s in self.services.items() if path == scope.node.path or path.startswith(prefix)
            }
            if found:
                return found.pop() if len(found) == 1 else None
        return None

    def consumer(self, function: Watched, mapping: lambda_.EventSourceMapping) -> WatchedConsumer:
        cfn: Any = mapping.node.default_child
        destination = getattr(getattr(cfn.destination_config, "on_failure", None), "destination", None)
        queue = self.queues.get(self._target(destination)) if destination else None
        return WatchedConsumer(
            function,
            self.tables[self._target(cfn.event_source_arn)],
            filtered=bool(self.stack.resolve(cfn.filter_criteria)),
            failures=self.watched(queue) if queue is not None else None,
        )

    def dead_letter_queue(self, rule: events.Rule) -> Watched | None:
        cfn: Any = rule.node.default_child
        for target in self.stack.resolve(cfn.targets) or []:
            arn = (target.get("deadLetterConfig") or {}).get("arn")
            if arn is not None:
                return self.watched(self.queues[self._target(arn)])
        return None

    def table(self, table: dynamodb.TableV2) -> WatchedTable:
        resource: Any = table.node.default_child
        # TableV2 renders its indexes lazily; resolving the L1 property lists them as the template will.
        indexes = self.stack.resolve(resource.global_secondary_indexes) or []
        return WatchedTable(
            path_name(self.stack, table),
            table,
            str(resource.billing_mode),
            tuple(index["indexName"] for index in indexes),
            self.service_of(table),
        )

    def _target(self, token: Any) -> str:
        """The logical id a reference (`Fn::GetAtt`, `Ref`) points at, as the template will say it."""
        resolved = self.stack.resolve(token)
        if isinstance(resolved, dict):
            return str(resolved.get("Ref") or resolved["Fn::GetAtt"][0])
        return str(resolved)


def find_all(scope: Construct, kind: type[Any]) -> list[Any]:
    return [construct for construct in scope.node.find_all() if isinstance(construct, kind)]


def _scopes(construct: Construct) -> Iterator[IConstruct]:
    """The construct and its ancestors below the stack, nearest first."""
    for scope in reversed(construct.node.scopes):
        if isinstance(scope, Stack):
            return
        yield scope


def path_name(stack: Stack, construct: Construct) -> str:
    """The construct's path below the stack, dash-separated: `Places/ZIndex/Maintainer` ->
    `Places-ZIndex-Maintainer` (unique in the stack, readable in an alarm name)."""
    return construct.node.path.removeprefix(f"{stack.node.path}/").replace("/", "-")
