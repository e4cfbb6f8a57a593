"""How a local cloud's functions, API, TTL sweeper and alarms are built from the template and started:
the steps of `LocalCloud.start` after the engines and tables (cloud.py), each over `CloudParts`.
"""

from __future__ import annotations

import threading

from tatami.local.cloudwatch.alarm_specs import read_alarms
from tatami.local.cloudwatch.alarms import Alarms
from tatami.local.engines import traffic
from tatami.local.engines.faults import FAULTS_ENV, FaultPlan
from tatami.local.engines.ttl import TtlSweeper, TtlTable
from tatami.local.functions.environment import function_environment
from tatami.local.functions.pool import FunctionPool
from tatami.local.functions.sandbox.workers import Sandbox
from tatami.local.functions.worker import EXPORT_API_ENV
from tatami.local.gateway.routes import RouteTable, read_gateway_responses, read_routes
from tatami.local.gateway.server import ApiGateway
from tatami.local.parts import CloudParts
from tatami.local.template.assembly import FunctionSpec
from tatami.local.template.intrinsics import UnresolvableError


class CloudWiring(CloudParts):
    """The start steps of the functions, the API, the TTL sweeper and the alarms."""

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
