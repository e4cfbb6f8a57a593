"""Helpers of the seed 001/002 model tests: fresh tables on DynamoDB Local and a call recorder.

The recorder hooks botocore's events on one client and keeps, per DynamoDB call, the operation,
the index it named, and what DynamoDB says it read (ScannedCount, Count, ConsumedCapacity), so a
test can assert "one Query on CustomerOrders that read 3 items" rather than trust the code.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

import boto3
import requests

from tatami.local.engines.processes import LOCAL_CREDENTIALS
from tatami.local.template.intrinsics import LOCAL_REGION
from tatami_functions.common.tables import TableSchema


@dataclass
class Call:
    operation: str
    index: str | None
    scanned: int | None = None
    count: int | None = None
    units: float | None = None


@dataclass
class Recorder:
    """Every DynamoDB call one client makes (thread-safe enough: each call carries its own context)."""

    calls: list[Call] = field(default_factory=list)

    def attach(self, client: Any) -> Recorder:
        client.meta.events.register("before-call.dynamodb", self._before)
        client.meta.events.register("after-call.dynamodb", self._after)
        return self

    def _before(self, model: Any, params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
        body = json.loads(params.get("body") or b"{}")
        context["recorded"] = call = Call(model.name, body.get("IndexName"))
        self.calls.append(call)

    def _after(self, parsed: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
        call: Call = context["recorded"]
        call.scanned, call.count = parsed.get("ScannedCount"), parsed.get("Count")
        consumed = parsed.get("ConsumedCapacity")
        call.units = consumed.get("CapacityUnits") if isinstance(consumed, dict) else None

    def take(self) -> list[Call]:
        calls, self.calls = self.calls, []
        return calls

    def operations(self) -> list[tuple[str, str | None]]:
        return [(c.operation, c.index) for c in self.take()]


def local_client(endpoint: str) -> Any:
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name=LOCAL_REGION, **LOCAL_CREDENTIALS)


def create_tables(client: Any, **tables: TableSchema) -> dict[str, str]:
    """Create each schema under a fresh name (tests never share a table); returns key -> name."""
    names = {}
    for key, table in tables.items():
        names[key] = f"{key}-{uuid.uuid4().hex[:8]}"
        client.create_table(**table.create_table_request(names[key]))
    return names


def get(api: str, path: str, **query: Any) -> tuple[int, Any]:
    """GET over HTTP: (status, decoded body)."""
    response = requests.get(f"{api}{path}", params=query, timeout=30)
    return response.status_code, response.json()
