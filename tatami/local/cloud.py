"""The local cloud: one object that starts, wires and stops every part, in that order.

Its state and endpoints are `parts.CloudParts`; how its functions, API, TTL sweeper and alarms are
built is `wiring`, its stream triggers `triggers`; what it reports is `status` and what a caller does
to it `actions`. Here: the engines, the template's resources, and the order of start and stop.

For example (not run as a doctest)::

    with LocalCloud(LocalCloudConfig(cdk_out=Path("cdk.out"))) as cloud:
        print(cloud.api_url, cloud.outputs)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from tatami.local.actions import CloudActions
from tatami.local.config import LocalCloudConfig, free_ports
from tatami.local.engines import processes as engines
from tatami.local.engines import provision
from tatami.local.engines.watchdog import EngineWatch
from tatami.local.status import CloudStatus
from tatami.local.triggers import StreamTriggers
from tatami.local.wiring import CloudWiring

__all__ = ["LocalCloud", "LocalCloudConfig", "free_ports"]

T = TypeVar("T")


class LocalCloud(CloudWiring, StreamTriggers, CloudStatus, CloudActions):
    """The synthesized app served locally; start() brings up everything, stop() tears it down."""

    # -- lifecycle -------------------------------------------------------------------------------
    def start(self) -> LocalCloud:
        try:
            self._start_engines()
            self._provision()
            self._start_functions()
            self._start_api()
            self._start_pollers()
            self._start_ttl_sweeper()
            self._start_alarms()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self, report: Callable[[str], None] | None = None) -> None:
        """Stop every part, last started first; `report` gets one line per part."""
        say = report or (lambda _line: None)
        with self._stopping:
            self._stop(say)

    def _stop(self, say: Callable[[str], None]) -> None:
        if self.watch is not None:
            self.watch.stop()
        if self.alarms is not None:
            self.alarms.stop()
        if self.ttl_sweeper is not None:
            self.ttl_sweeper.stop()
        if self.pollers:
            _at_once([poller.stop for poller in self.pollers])
            say(f"stream triggers: {len(self.pollers)} stopped")
        if self.api is not None:
            self.api.stop()
            say(f"API on {self.api.url}: stopped")
        if self.pools:
            ended = sum(_at_once([pool.close for pool in self.pools.values()]))
            say(f"functions: {len(self.pools)} stopped ({ended} execution environments)")
        for engine in reversed(self.engines):
            engine.stop()
            say(f"{engine.name}: stopped")
        self.pollers, self.api, self.pools, self.engines = [], None, {}, []

    def kill(self) -> None:
        """SIGKILL every process this cloud started, without waiting (a second Ctrl-C)."""
        for pool in list(self.pools.values()):
            pool.kill()
        for engine in self.engines:
            engine.kill()

    def __enter__(self) -> LocalCloud:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    # -- steps -----------------------------------------------------------------------------------
    def _start_engines(self) -> None:
        logs = self.config.work_dir / "logs"
        self.engines.append(
            engines.start_dynamodb_local(
                self.config.dynamodb_port, logs / "dynamodb-local.log", self.config.db_path
            )
        )
        self.engines.append(engines.start_moto(self.config.moto_port, logs / "moto.log", self.config.db_path))
        self.log.write(
            "local cloud", f"DynamoDB Local on {self.dynamodb_endpoint}, moto on {self.moto_endpoint}"
        )
        say = lambda line: self.log.write("local cloud", line)  # noqa: E731 - a one-line sink
        self.watch = EngineWatch(self.engines, self.config.db_path, logs, say, self._lost)
        self.watch.start()

    def _lost(self, reason: str) -> None:
        self.failure = reason
        self.log.write("local cloud", reason)
        if self.on_engine_lost is not None:
            self.on_engine_lost(reason)
        else:
            threading.Thread(target=self.stop, name="stop", daemon=True).start()

    def _provision(self) -> None:
        self.tables = provision.create_tables(self.client("dynamodb"), self.assembly, self.resolver)
        provision.create_queues(self.client("sqs"), self.assembly, self.resolver)
        provision.create_buckets(self.client("s3"), self.assembly, self.resolver)
        provision.create_secrets(self.client("secretsmanager"), self.assembly, self.resolver)
        provision.create_glue_catalog(self.client("glue"), self.assembly, self.resolver)
        provision.register_functions(self.assembly, self.resolver)
        provision.register_remaining(self.assembly, self.resolver)
        self.outputs = provision.resolve_outputs(self.assembly, self.resolver)
        self.log.write(
            "local cloud",
            f"created {len(self.assembly.tables)} tables, "
            f"{len(self.assembly.queues)} queues, {len(self.assembly.buckets)} buckets",
        )


def _at_once[T](steps: list[Callable[[], T]]) -> list[T]:
    """Run independent stop steps in parallel (each may wait seconds for work in flight)."""
    with ThreadPoolExecutor(max(1, len(steps)), thread_name_prefix="stop") as pool:
        return list(pool.map(lambda step: step(), steps))
