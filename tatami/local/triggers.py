"""A local cloud's stream triggers: one poller per event-source mapping of the template that Lambda
would create, delivering batches as Lambda does (`events.delivery`) to the mapping's function.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from botocore.exceptions import ClientError

from tatami.local.engines.ttl import TtlRemovals
from tatami.local.events.delivery import BatchDelivery, MappingStats
from tatami.local.events.streams import StreamPoller
from tatami.local.functions.pool import Invocation
from tatami.local.iam.guard import ENFORCE, OFF
from tatami.local.parts import CloudParts
from tatami.local.template.assembly import StreamMappingSpec


class StreamTriggers(CloudParts):
    """The start step of the stream triggers, and how each poller is wired."""

    def _start_pollers(self) -> None:
        streams, sqs = self.client("dynamodbstreams"), self.client("sqs")
        for spec in self.assembly.stream_mappings:
            if spec.enabled and self._may_create(spec):
                poller = self._poller(spec, streams, sqs)
                poller.start()
                self.pollers.append(poller)

    def _may_create(self, spec: StreamMappingSpec) -> bool:
        """Lambda creates a stream mapping only if the function's role may read the stream and send
        to the on-failure queue; without that, `cdk deploy` fails, so the mapping does not run here."""
        if self.config.iam_mode == OFF:
            return True
        queue = self.resolver.get_att(spec.on_failure_queue_id, "Arn") if spec.on_failure_queue_id else None
        refused = self.sandbox.mapping_refusals(
            spec.function_id, self.tables.stream_arns[spec.table_id], queue
        )
        for message in refused:
            verdict = "not started" if self.config.iam_mode == ENFORCE else "started (IAM soft)"
            self.log.write("iam", f"mapping {spec.logical_id} {verdict}: AccessDenied for {message}")
        return not refused or self.config.iam_mode != ENFORCE

    def _poller(self, spec: StreamMappingSpec, streams: Any, sqs: Any) -> StreamPoller:
        stats = self.stream_stats.setdefault(spec.logical_id, MappingStats())
        queue_url = self.resolver.refs.get(spec.on_failure_queue_id or "")
        source = f"{self.assembly.functions[spec.function_id].name.split('-', 1)[-1]} stream"[:24]

        def discard(message: dict[str, Any]) -> None:
            if not queue_url:
                return
            try:
                sqs.send_message(QueueUrl=queue_url, MessageBody=json.dumps(message))
            except ClientError as exc:  # as Lambda, the batch stays given up on; the metric says so
                self.metrics.delivery_failed(function_name)
                log(f"could not send the discarded batch to its on-failure queue: {exc}")

        def invoke(event: dict[str, Any]) -> Invocation:
            return self.invoke(spec.alias_id or spec.function_id, event)

        def log(line: str) -> None:
            self.log.write(source, line)

        # Lambda names the invoked ARN in what it parks: the alias's when the mapping names one.
        function_arn = (
            self.resolver.refs[spec.alias_id]
            if spec.alias_id
            else self.resolver.get_att(spec.function_id, "Arn")
        )
        function_name = self.assembly.functions[spec.function_id].name

        def report_age(seconds: float) -> None:
            self.metrics.iterator_age(function_name, seconds)

        delivery = BatchDelivery(spec, function_arn, invoke, discard, stats, log, self.clock, report_age)
        # A table kept from a persistent database (--db-path) resumes at its newest record: the
        # local cloud keeps no checkpoints, and replaying a day of old records would surprise more.
        if spec.table_id in self.tables.reused:
            spec = dataclasses.replace(spec, starting_position="LATEST")
        stream_arn = self.tables.stream_arns[spec.table_id]
        table = next(t for t in self.assembly.tables if t.logical_id == spec.table_id)
        ttl = (
            TtlRemovals(self.expired_items, table.name, table.ttl_attribute) if table.ttl_attribute else None
        )
        return StreamPoller(spec, streams, stream_arn, delivery, self.config.poll_interval, ttl)
