"""The state every part of a local cloud shares, and what callers use of it: its endpoints, its clients,
its functions. `LocalCloud` (cloud.py) is these parts, started in order; `wiring`, `triggers`, `status`
and `actions` each add one concern over this state.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3

from tatami.local.cloudwatch.metric_sources import CloudMetrics
from tatami.local.cloudwatch.metrics import LocalClock, MetricStore
from tatami.local.config import LocalCloudConfig
from tatami.local.engines import processes as engines
from tatami.local.engines import provision, traffic
from tatami.local.engines.ttl import ExpiredItems, TtlSweeper
from tatami.local.events.delivery import MappingStats
from tatami.local.logbook import LogBook
from tatami.local.template.assembly import LOCAL_VERSION, Assembly, load_assembly
from tatami.local.template.intrinsics import LOCAL_REGION, Resolver

if TYPE_CHECKING:
    from botocore.config import Config

    from tatami.local.cloudwatch.alarms import Alarms
    from tatami.local.engines.watchdog import EngineWatch
    from tatami.local.events.streams import StreamPoller
    from tatami.local.functions.pool import FunctionPool, Invocation
    from tatami.local.functions.sandbox.workers import Sandbox
    from tatami.local.gateway.server import ApiGateway


class CloudParts:
    """The parts of one local cloud (none started yet), and their endpoints."""

    sandbox: Sandbox  # the functions' (and the mappings') IAM and import paths: made when they start

    def __init__(self, config: LocalCloudConfig) -> None:
        self.config = config
        self.log = LogBook(echo=config.echo_logs)
        self.assembly: Assembly = load_assembly(config.cdk_out)
        self.resolver = Resolver(stack_name=self.assembly.stacks[0].name if self.assembly.stacks else "local")
        self.engines: list[engines.Engine] = []
        self.pools: dict[str, FunctionPool] = {}
        self.pollers: list[StreamPoller] = []
        self.stream_stats: dict[str, MappingStats] = {}
        self.outputs: dict[str, str] = {}
        self.tables = provision.CreatedTables()
        self.expired_items = ExpiredItems()
        self.ttl_sweeper: TtlSweeper | None = None
        self.api: ApiGateway | None = None
        self.watch: EngineWatch | None = None
        # An engine lost for good (`watchdog`): why, and who stops the cloud (default: it stops itself).
        self.failure: str | None = None
        self.on_engine_lost: Callable[[str], None] | None = None
        self._stopping = threading.Lock()
        self.clock = LocalClock()  # the alarms' and stream records' time; tests may move it ahead
        self.metrics = CloudMetrics(MetricStore(self.clock))
        self.alarms: Alarms | None = None

    @property
    def api_url(self) -> str:
        assert self.api is not None, "the local cloud is not started"
        return self.api.url

    @property
    def dynamodb_endpoint(self) -> str:
        return f"http://127.0.0.1:{self.config.dynamodb_port}"

    @property
    def moto_endpoint(self) -> str:
        return f"http://127.0.0.1:{self.config.moto_port}"

    @property
    def traffic_dir(self) -> Path:
        """Where this session records its DynamoDB traffic (`tatami local insights` reads it)."""
        return traffic.session_directory(self.config.work_dir, os.getpid())

    def client(self, service: str, config: Config | None = None) -> Any:
        """A boto3 client for the local endpoint of `service` (DynamoDB Local or moto)."""
        endpoint = self.dynamodb_endpoint if service.startswith("dynamodb") else self.moto_endpoint
        return boto3.client(
            service,
            endpoint_url=endpoint,
            region_name=LOCAL_REGION,
            config=config,
            **engines.LOCAL_CREDENTIALS,
        )

    def invoke(self, target_id: str, event: dict[str, Any], timeout: float | None = None) -> Invocation:
        """Invoke a function, or the function behind an alias (`target_id` names either, as a
        FunctionName may be qualified): through an alias its context carries the alias's ARN."""
        alias = self.assembly.aliases.get(target_id)
        function_id = alias.function_id if alias else target_id
        qualified = (alias.name, LOCAL_VERSION) if alias else None
        invocation = self.pools[function_id].invoke(event, timeout, qualified)
        self.metrics.invocation(self.assembly.functions[function_id].name, invocation)
        return invocation
