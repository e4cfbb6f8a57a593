"""Where the console's data comes from on the local cloud: the running `LocalCloud` itself.

A deployed stack has its own source (`deployed.py`) with the same methods; the page asks the same
endpoints of both, and a view a source cannot offer says why instead of guessing.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Protocol

from tatami.clients import CONSOLE_CALLS
from tatami.console import operations, tables, traffic
from tatami.local.cloud import LocalCloud
from tatami.target import indexed_tables
from zindex import IndexedTable


class Source(Protocol):
    """What the console's endpoints read; `LocalSource` and `deployed.DeployedSource` provide it."""

    def overview(self) -> dict[str, Any]: ...
    def tables(self) -> list[dict[str, Any]]: ...
    def dynamodb(self) -> Any: ...
    def indexed_tables(self) -> dict[str, IndexedTable]: ...
    def traffic(self, scale: float) -> dict[str, Any]: ...
    def operations(self) -> dict[str, Any]: ...


def output_labels(outputs: Mapping[str, str]) -> dict[str, str]:
    """Physical table name -> the stack output naming it (`PlacesTableName`), the name people know."""
    return {
        value: key.removesuffix("TableName") for key, value in outputs.items() if key.endswith("TableName")
    }


class LocalSource:
    """The console's data from a running local cloud (the same process)."""

    def __init__(self, cloud: LocalCloud) -> None:
        self.cloud = cloud

    def overview(self) -> dict[str, Any]:
        return {"mode": "local", "name": "local cloud", "api_url": self.cloud.api_url}

    def tables(self) -> list[dict[str, Any]]:
        labels = output_labels(self.cloud.outputs)
        return [
            tables.describe(t.name, labels.get(t.name, t.logical_id), t.properties)
            for t in self.cloud.assembly.tables
        ]

    def dynamodb(self) -> Any:
        return self._client("dynamodb")

    @functools.cache  # noqa: B019 - one source per cloud, for its life: a boto3 client costs tens of ms
    def _client(self, service: str) -> Any:
        return self.cloud.client(service, CONSOLE_CALLS.config)

    def indexed_tables(self) -> dict[str, IndexedTable]:
        return indexed_tables(self.cloud.outputs)

    def traffic(self, scale: float) -> dict[str, Any]:
        return traffic.traffic(self.cloud.traffic_dir, self.dynamodb(), scale)

    def operations(self) -> dict[str, Any]:
        cloud = self.cloud
        return {
            "streams": self._streams(),
            "index_lag": operations.index_lag(self.indexed_tables(), self.dynamodb()),
            "queues": self._queues(),
            "functions": [
                operations.invocations(pool.spec.name, pool.spec.memory_mb, list(pool.recent))
                for pool in cloud.pools.values()
            ],
            "iam": operations.iam_report(cloud.config.work_dir),
            "alarms": cloud.alarm_states(),  # as `tatami local alarms` shows them, ALARM first
        }

    def _streams(self) -> list[dict[str, Any]]:
        """Each stream trigger of the template with what its poller delivered and still has to."""
        assembly, status = self.cloud.assembly, self.cloud.stream_status()
        names = {t.logical_id: t.name for t in assembly.tables}
        return [
            {
                "mapping": mapping.logical_id,
                "table": names[mapping.table_id],
                "function": assembly.functions[mapping.function_id].name,
                "running": mapping.logical_id in status,
                **status.get(mapping.logical_id, {}),
            }
            for mapping in assembly.stream_mappings
        ]

    def _queues(self) -> list[dict[str, Any]]:
        """Every queue of the template (each is a failure queue here), the triggers feeding it, and a
        peek at what is parked in it."""
        assembly, sqs = self.cloud.assembly, self._client("sqs")
        feeding: dict[str, list[str]] = {}
        for mapping in assembly.stream_mappings:
            if mapping.on_failure_queue_id:
                name = assembly.functions[mapping.function_id].name
                feeding.setdefault(mapping.on_failure_queue_id, []).append(name)
        found = []
        for logical_id in sorted(assembly.queues):
            url = self.cloud.resolver.refs[logical_id]
            fed_by = ", ".join(feeding.get(logical_id, [])) or "none of the stream triggers"
            found.append({"queue": logical_id, "url": url, "fed_by": fed_by, **operations.parked(sqs, url)})
        return found
