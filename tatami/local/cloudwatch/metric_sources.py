"""What the local cloud sees, published as the metrics AWS would publish for it.

- AWS/Lambda: Invocations, Errors and Duration of every invocation, IteratorAge of every stream batch
  (the age of its last record when it is handed to the function, as Lambda measures it), and
  DestinationDeliveryFailures when a given-up batch could not be sent to its on-failure queue.
- AWS/ApiGateway: Count, 4XXError, 5XXError and Latency of every request, per API and per stage.
- The functions' own metrics: the embedded metric format (EMF) lines Powertools prints.
- AWS/SQS: visible messages, messages sent and the oldest one's age of every queue, sampled
  (`queue_metrics.py`).
- AWS/DynamoDB: ConsumedRead/WriteCapacityUnits per table from the calls the traffic recorder logged
  (`traffic.py`: the functions' and the CLI's, with the capacity DynamoDB Local computed), and
  ReadThrottleEvents and WriteThrottleEvents (per table, and per index for reads of an index) and
  ThrottledRequests from the throttled answers it saw. DynamoDB Local never throttles: these come
  from injected faults.

Lambda never throttles locally (no reserved concurrency; a busy function's requests wait for a worker).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from tatami.local.cloudwatch.metrics import MetricStore
from tatami.local.cloudwatch.queue_metrics import QueueMetrics
from tatami.local.functions.pool import Invocation

__all__ = ["CloudMetrics", "capacity_datapoints", "emf_datapoints", "throttle_datapoints"]

_READS = frozenset({"GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"})
Datapoint = tuple[str, str, dict[str, str], float]  # namespace, metric, dimensions, value


class CloudMetrics:
    """Turns the local cloud's observations into datapoints of `store`."""

    def __init__(self, store: MetricStore) -> None:
        self.store = store
        self.queues = QueueMetrics(store)
        self._read_offsets: dict[Path, int] = {}

    def invocation(self, function_name: str, invocation: Invocation) -> None:
        dimensions = {"FunctionName": function_name}
        self.store.put("AWS/Lambda", "Invocations", dimensions, 1)
        self.store.put("AWS/Lambda", "Errors", dimensions, 0 if invocation.ok else 1)
        self.store.put("AWS/Lambda", "Duration", dimensions, invocation.duration_ms)

    def iterator_age(self, function_name: str, seconds: float) -> None:
        self.store.put("AWS/Lambda", "IteratorAge", {"FunctionName": function_name}, seconds * 1000)

    def delivery_failed(self, function_name: str) -> None:
        """A batch the function's mapping gave up on could not be sent to its on-failure destination."""
        self.store.put("AWS/Lambda", "DestinationDeliveryFailures", {"FunctionName": function_name}, 1)

    def api_response(self, api_name: str, stage: str, status: int, latency_ms: float) -> None:
        for dimensions in ({"ApiName": api_name}, {"ApiName": api_name, "Stage": stage}):
            self.store.put("AWS/ApiGateway", "Count", dimensions, 1)
            self.store.put("AWS/ApiGateway", "4XXError", dimensions, 1 if 400 <= status < 500 else 0)
            self.store.put("AWS/ApiGateway", "5XXError", dimensions, 1 if status >= 500 else 0)
            self.store.put("AWS/ApiGateway", "Latency", dimensions, latency_ms)

    def function_line(self, line: str) -> None:
        """A line a function printed: an EMF document publishes its metrics."""
        for namespace, name, dimensions, value in emf_datapoints(line):
            self.store.put(namespace, name, dimensions, value)

    def sample_queues(self, sqs: Any, queue_urls: Mapping[str, str]) -> None:
        """Each queue's metrics now (`queue_urls`: queue name -> URL)."""
        self.queues.sample(sqs, queue_urls)

    def read_throttles(self, directory: Path) -> None:
        """The throttled calls the functions' traffic recorders logged since the last read."""
        self._read(directory, throttle_datapoints)

    def read_traffic(self, directory: Path) -> None:
        """The capacity the calls the traffic recorders logged since the last read consumed."""
        self._read(directory, capacity_datapoints)

    def _read(self, directory: Path, datapoints: Callable[[Mapping[str, Any]], list[Datapoint]]) -> None:
        for path in sorted(directory.glob("*.jsonl")):
            for record in self._new_lines(path):
                at = self.store.clock.reading_at(float(record["t"]))
                for namespace, name, dimensions, value in datapoints(record):
                    self.store.put(namespace, name, dimensions, value, at=at)

    def _new_lines(self, path: Path) -> Iterator[dict[str, Any]]:
        with path.open("rb") as file:
            file.seek(self._read_offsets.get(path, 0))
            data = file.read()
        complete = data[: data.rfind(b"\n") + 1]  # a line still being written waits for the next read
        self._read_offsets[path] = self._read_offsets.get(path, 0) + len(complete)
        for line in complete.splitlines():
            yield json.loads(line)


def emf_datapoints(line: str) -> list[Datapoint]:
    """The metrics of an embedded-metric-format line (any other line: none).

    >>> emf_datapoints('{"_aws": {"CloudWatchMetrics": [{"Namespace": "T", "Dimensions": [["service"]],'
    ...                ' "Metrics": [{"Name": "Lag"}]}]}, "service": "places", "Lag": [2.5]}')
    [('T', 'Lag', {'service': 'places'}, 2.5)]
    """
    if '"_aws"' not in line:
        return []
    try:
        document = json.loads(line)
        directives = document["_aws"]["CloudWatchMetrics"]
    except (ValueError, TypeError, KeyError):
        return []
    found: list[Datapoint] = []
    for directive in directives:
        for dimension_set in directive.get("Dimensions") or [[]]:
            dimensions = {name: str(document.get(name, "")) for name in dimension_set}
            for metric in directive.get("Metrics", []):
                value = document.get(metric["Name"])
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, int | float):
                        found.append((directive["Namespace"], metric["Name"], dimensions, float(item)))
    return found


def throttle_datapoints(record: Mapping[str, Any]) -> list[Datapoint]:
    """The DynamoDB metrics of one throttled call (one event per table or index it named).

    >>> throttle_datapoints({"op": "Query", "req": {"TableName": "T", "IndexName": "by-x"}})[0]
    ('AWS/DynamoDB', 'ReadThrottleEvents', {'TableName': 'T', 'GlobalSecondaryIndexName': 'by-x'}, 1.0)
    """
    operation, request = str(record["op"]), record.get("req") or {}
    events = "ReadThrottleEvents" if operation in _READS else "WriteThrottleEvents"
    found: list[Datapoint] = []
    for table, index in _tables(request):
        dimensions = {"TableName": table, **({"GlobalSecondaryIndexName": index} if index else {})}
        found.append(("AWS/DynamoDB", events, dimensions, 1.0))
        found.append(("AWS/DynamoDB", "ThrottledRequests", {"TableName": table, "Operation": operation}, 1.0))
    return found


def capacity_datapoints(record: Mapping[str, Any]) -> list[Datapoint]:
    """The table-level capacity one recorded call consumed (its indexes' are not alarmed on).

    >>> capacity_datapoints({"op": "PutItem", "cc": {"TableName": "T", "CapacityUnits": 2.0, "Table":
    ...                      {"CapacityUnits": 1.0}}})
    [('AWS/DynamoDB', 'ConsumedWriteCapacityUnits', {'TableName': 'T'}, 1.0)]
    """
    consumed = record.get("cc") or []
    name = "ConsumedReadCapacityUnits" if record["op"] in _READS else "ConsumedWriteCapacityUnits"
    return [
        ("AWS/DynamoDB", name, {"TableName": entry["TableName"]}, float(units))
        for entry in (consumed if isinstance(consumed, list) else [consumed])
        if (units := (entry.get("Table") or entry).get("CapacityUnits")) is not None
    ]


def _tables(request: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """(table, index) pairs a request names: its TableName, its batch's tables, its transaction's."""
    if "TableName" in request:
        return [(request["TableName"], request.get("IndexName"))]
    if "RequestItems" in request:
        return [(table, None) for table in request["RequestItems"]]
    return [
        (action["TableName"], None)
        for item in request.get("TransactItems", [])
        for action in item.values()
        if isinstance(action, dict) and "TableName" in action
    ]
