"""The local cloud: one object that starts, wires and stops every part, in that order.

>>> with LocalCloud(LocalCloudConfig(cdk_out=Path("cdk.out"))) as cloud:  # doctest: +SKIP
...     print(cloud.api_url, cloud.outputs)
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from tatami.local.cloudwatch.alarm_specs import read_alarms
from tatami.local.cloudwatch.alarms import Alarms
from tatami.local.cloudwatch.metric_sources import CloudMetrics
from tatami.local.cloudwatch.metrics import LocalClock, MetricStore
from tatami.local.engines import processes as engines
from tatami.local.engines import provision, traffic
from tatami.local.engines.faults import FAULTS_ENV, FaultPlan
from tatami.local.engines.ttl import ExpiredItems, TtlRemovals, TtlSweeper, TtlTable
from tatami.local.engines.watchdog import EngineWatch
from tatami.local.events.delivery import BatchDelivery, MappingStats
from tatami.local.events.rules import find_rule, scheduled_event
from tatami.local.events.streams import StreamPoller
from tatami.local.functions.environment import function_environment
from tatami.local.functions.pool import FunctionPool, Invocation
from tatami.local.functions.sandbox.workers import Sandbox
from tatami.local.functions.worker import EXPORT_API_ENV
from tatami.local.gateway.routes import RouteTable, read_gateway_responses, read_routes
from tatami.local.gateway.server import ApiGateway
from tatami.local.iam.guard import ENFORCE, OFF
from tatami.local.logbook import LogBook
from tatami.local.state import default_work_dir
from tatami.local.template.assembly import (
    LOCAL_VERSION,
    Assembly,
    FunctionSpec,
    StreamMappingSpec,
    load_assembly,
)
from tatami.local.template.intrinsics import LOCAL_REGION, Resolver, UnresolvableError

T = TypeVar("T")


@dataclass
class LocalCloudConfig:
    cdk_out: Path
    api_port: int = 3000
    dynamodb_port: int = 8000
    moto_port: int = 5005
    work_dir: Path = dataclasses.field(default_factory=default_work_dir)
    db_path: Path | None = None  # None: DynamoDB Local and moto keep everything in memory
    stage: str = "v1"
    warm_functions: bool = True
    max_workers_per_function: int = 8
    poll_interval: float = 0.1
    echo_logs: bool = True
    iam_mode: str = ENFORCE  # enforce | soft (log what AWS would refuse) | off
    # Injected faults (tatami/local/engines/faults.py) for the workers of each function whose logical id
    # starts with a key: the reliability tests' throttling, transient errors and crashes.
    faults: dict[str, FaultPlan] = dataclasses.field(default_factory=dict)
    # A switch file every other function watches: `inject_faults` (`tatami local faults`) arms a plan there.
    fault_switch: Path | None = None
    alarm_interval: float = 10.0  # seconds between evaluations of the template's alarms (0: on demand)


def free_ports() -> dict[str, int]:
    """A LocalCloudConfig's three ports, each free now: a cloud beside others (tests, benches)."""
    return {name: engines.free_port() for name in ("api_port", "dynamodb_port", "moto_port")}


class LocalCloud:
    """The synthesized app served locally; start() brings up everything, stop() tears it down."""

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

    # -- what callers use ------------------------------------------------------------------------
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

    def stream_status(self) -> dict[str, dict[str, Any]]:
        """Per stream trigger: its function, what it delivered, and the records still waiting for it."""
        return {
            poller.spec.logical_id: {
                "function": poller.spec.function_id,
                "backlog_records": poller.backlog(),
                **asdict(self.stream_stats.get(poller.spec.logical_id, MappingStats())),
            }
            for poller in self.pollers
        }

    def engine_status(self) -> dict[str, dict[str, Any]]:
        """Per engine: its endpoint, whether its process runs, and how often the watchdog restarted it."""
        restarts = self.watch.restarts if self.watch else {}
        return {
            engine.name: {
                "endpoint": engine.endpoint,
                "running": engine.process is not None and engine.process.poll() is None,
                "restarts": len(restarts.get(engine.name, [])),
            }
            for engine in self.engines
        }

    def invoke(self, target_id: str, event: dict[str, Any], timeout: float | None = None) -> Invocation:
        """Invoke a function, or the function behind an alias (`target_id` names either, as a
        FunctionName may be qualified): through an alias its context carries the alias's ARN."""
        alias = self.assembly.aliases.get(target_id)
        function_id = alias.function_id if alias else target_id
        qualified = (alias.name, LOCAL_VERSION) if alias else None
        invocation = self.pools[function_id].invoke(event, timeout, qualified)
        self.metrics.invocation(self.assembly.functions[function_id].name, invocation)
        return invocation

    def alarm_states(self) -> list[dict[str, Any]]:
        """Every alarm of the template with its state now (ALARM first): name, state, reason, since,
        what it watches. The one view of the alarms: `tatami local status`/`alarms`, GET /alarms."""
        return self.alarms.refresh() if self.alarms is not None else []

    @contextlib.contextmanager
    def stalled_trigger(self, function_id: str) -> Iterator[None]:
        """The stream trigger of `function_id` delivers nothing inside the block (a stalled consumer)."""
        (poller,) = [poller for poller in self.pollers if poller.spec.function_id == function_id]
        poller.hold()
        try:
            yield
        finally:
            poller.release()

    def inject_faults(self, plan: FaultPlan | None) -> None:
        """Arm `plan` in every function watching the cloud's fault switch (None: disarm)."""
        if self.config.fault_switch is None:
            raise ValueError("this local cloud was started without a fault switch")
        if plan is None:
            self.config.fault_switch.unlink(missing_ok=True)
        else:
            self.config.fault_switch.write_text(plan.to_json())

    def fire_rule(self, name: str) -> list[Invocation]:
        """Invoke every target of a scheduled rule now, with its Input or the scheduled event."""
        rule = find_rule(self.assembly.rules, name)
        event = scheduled_event(self.resolver.get_att(rule.logical_id, "Arn"))
        return [
            self.invoke(function_id, json.loads(self.resolver.resolve(payload)) if payload else event)
            for function_id, payload in rule.targets
        ]

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

    def _start_functions(self) -> None:
        if self.config.fault_switch is not None:
            self.config.fault_switch.unlink(missing_ok=True)  # a crashed run's faults are not armed
        self.sandbox = Sandbox(self.assembly, self.resolver, self.config.work_dir, self.config.iam_mode)
        for logical_id, spec in self.assembly.functions.items():
            self.pools[logical_id] = FunctionPool(
                spec, self._function_env(spec), self._function_log, self.config.max_workers_per_function
            )
        if self.config.warm_functions:
            threads = [threading.Thread(target=pool.warm, daemon=True) for pool in self.pools.values()]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

    def _function_log(self, name: str, line: str) -> None:
        self.log.function(name, line)
        self.metrics.function_line(line)  # a Powertools metrics (EMF) line publishes its metrics

    def _function_env(self, spec: FunctionSpec) -> dict[str, str]:
        try:
            declared = {k: str(v) for k, v in self.resolver.resolve(spec.environment).items()}
        except UnresolvableError as exc:
            raise UnresolvableError(f"environment of function {spec.logical_id}: {exc}") from None
        runtime_file = self.sandbox.runtime_file(spec, self.resolver.get_att(spec.logical_id, "Arn"))
        env = function_environment(
            spec, declared, runtime_file, self.dynamodb_endpoint, self.moto_endpoint, self.traffic_dir
        )
        if self.sandbox.may_call(spec.logical_id, "dynamodb:ExportTableToPointInTime"):
            env[EXPORT_API_ENV] = "1"  # its workers answer the export API (engines/exports.py)
        plans = [plan for prefix, plan in self.config.faults.items() if spec.logical_id.startswith(prefix)]
        if not plans and self.config.fault_switch is not None:
            plans = [FaultPlan(switch=str(self.config.fault_switch))]
        return {**env, FAULTS_ENV: plans[0].to_json()} if plans else env

    def _start_api(self) -> None:
        routes = RouteTable(route for stack in self.assembly.stacks for route in read_routes(stack))
        responses = {k: v for stack in self.assembly.stacks for k, v in read_gateway_responses(stack).items()}
        names = [
            p.get("Name", k) for s in self.assembly.stacks for k, p in s.resources("AWS::ApiGateway::RestApi")
        ]
        api_name, stage = (names or ["api"])[0], self.config.stage

        def published(status: int, latency_ms: float) -> None:
            self.metrics.api_response(api_name, stage, status, latency_ms)

        self.api = ApiGateway(
            routes,
            self.invoke,
            lambda line: self.log.write("api", line),
            self.config.api_port,
            stage,
            responses,
            on_response=published,
        )
        self.api.start()

    def _start_ttl_sweeper(self) -> None:
        tables = [
            TtlTable(t.name, t.ttl_attribute, t.key_attributes)
            for t in self.assembly.tables
            if t.ttl_attribute
        ]
        self.ttl_sweeper = TtlSweeper(
            self.client("dynamodb"), tables, self.expired_items, log=lambda line: self.log.write("ttl", line)
        )
        self.ttl_sweeper.start()

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

    def _start_alarms(self) -> None:
        """The template's alarms over what this cloud sees, sampling its queues and the throttles its
        functions logged; refreshed every `alarm_interval` seconds (and on each `alarm_states()`)."""
        queues = {name: self.resolver.refs[logical_id] for logical_id, name in self.assembly.queues.items()}
        sqs, throttles = self.client("sqs"), self.traffic_dir / traffic.THROTTLED_DIR
        self.alarms = Alarms(
            read_alarms(self.assembly, self.resolver),
            self.metrics.store,
            samplers=[
                lambda: self.metrics.sample_queues(sqs, queues),
                lambda: self.metrics.read_throttles(throttles),
                lambda: self.metrics.read_traffic(self.traffic_dir),
            ],
            log=lambda line: self.log.write("alarms", line),
        )
        if self.config.alarm_interval:
            self.alarms.start(self.config.alarm_interval)

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


def _at_once[T](steps: list[Callable[[], T]]) -> list[T]:
    """Run independent stop steps in parallel (each may wait seconds for work in flight)."""
    with ThreadPoolExecutor(max(1, len(steps)), thread_name_prefix="stop") as pool:
        return list(pool.map(lambda step: step(), steps))
