"""What the cold starts run against: DynamoDB Local and moto on free loopback ports, with the template's
tables, queues, buckets, secrets and Glue catalog, and each function's worker environment.

The same parts the local cloud starts and provisions (`tatami.local.engines`), without its API server,
stream pollers, alarm evaluation or TTL sweeper: nothing else runs on the machine's two cores while a
handler is timed. IAM is not enforced (its guard adds a hook to every call Lambda does not have).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3

from tatami.local.engines import processes as engines
from tatami.local.engines import provision
from tatami.local.functions.environment import function_environment
from tatami.local.functions.sandbox.workers import Sandbox
from tatami.local.iam.guard import OFF
from tatami.local.template.assembly import Assembly, FunctionSpec, load_assembly
from tatami.local.template.intrinsics import LOCAL_REGION, Resolver

# What the local cloud's workers get and AWS does not set: tracing stays on, as in AWS (no daemon
# listens on X-Ray's loopback port, so the segments go nowhere; the SDK's work is done all the same).
LOCAL_ONLY = ("POWERTOOLS_TRACE_DISABLED",)


@dataclass
class World:
    assembly: Assembly
    resolver: Resolver
    sandbox: Sandbox
    dynamodb_endpoint: str
    moto_endpoint: str
    stream_arns: dict[str, str]  # table logical id -> its stream's ARN in DynamoDB Local

    def client(self, service: str) -> Any:
        return local_client(service, self.dynamodb_endpoint, self.moto_endpoint)

    def environment(self, spec: FunctionSpec, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The worker's environment of `spec` (a function of the template, or one made like it)."""
        declared = {k: str(v) for k, v in self.resolver.resolve(spec.environment).items()}
        arn = self.resolver.get_att(spec.logical_id, "Arn")
        if spec.logical_id in self.assembly.functions:
            runtime_file = self.sandbox.runtime_file(spec, arn)
        else:  # the minimal handler: its own runtime file, as `Sandbox.runtime_file` writes them
            runtime_file = self.sandbox.work_dir / "runtime" / f"{spec.logical_id}.json"
            sys_path = self.sandbox.runtime.import_path(spec.code_dir, spec.layer_dirs, spec.external_layers)
            runtime_file.write_text(json.dumps({"sys_path": sys_path, "function_arn": arn, "iam": {}}))
        env = function_environment(
            spec, {**declared, **(extra or {})}, runtime_file, self.dynamodb_endpoint, self.moto_endpoint
        )
        return {k: v for k, v in env.items() if k not in LOCAL_ONLY}

    def made_like(self, spec: FunctionSpec, logical_id: str, code_dir: Path, handler: str) -> FunctionSpec:
        """A function beside `spec` (its runtime and memory), with other code and the Powertools layer."""
        self.resolver.attributes[(logical_id, "Arn")] = (
            f"arn:aws:lambda:{LOCAL_REGION}:0:function:{logical_id}"
        )
        powertools = tuple(self.sandbox.runtime.wheel_layers)  # the layer built from wheels, not zorder
        return dataclasses.replace(
            spec,
            logical_id=logical_id,
            name=logical_id,
            handler=handler,
            code_dir=code_dir,
            layer_dirs=powertools,
            environment={},
        )


def local_client(service: str, dynamodb_endpoint: str, moto_endpoint: str) -> Any:
    """A boto3 client of DynamoDB Local (DynamoDB and its streams) or moto (everything else)."""
    endpoint = dynamodb_endpoint if service.startswith("dynamodb") else moto_endpoint
    return boto3.client(service, endpoint_url=endpoint, region_name=LOCAL_REGION, **engines.LOCAL_CREDENTIALS)


@contextlib.contextmanager
def running(cdk_out: Path, work: Path) -> Iterator[World]:
    """The engines started and provisioned from the cloud assembly in `cdk_out`; stopped on leaving."""
    assembly = load_assembly(cdk_out)
    resolver = Resolver(stack_name=assembly.stacks[0].name)
    with contextlib.ExitStack() as started:
        dynamodb = engines.start_dynamodb_local(engines.free_port(), work / "logs" / "dynamodb-local.log")
        started.callback(dynamodb.stop)
        moto = engines.start_moto(engines.free_port(), work / "logs" / "moto.log")
        started.callback(moto.stop)

        def client(service: str) -> Any:
            return local_client(service, dynamodb.endpoint, moto.endpoint)

        tables = provision.create_tables(client("dynamodb"), assembly, resolver)
        provision.create_queues(client("sqs"), assembly, resolver)
        provision.create_buckets(client("s3"), assembly, resolver)
        provision.create_secrets(client("secretsmanager"), assembly, resolver)
        provision.create_glue_catalog(client("glue"), assembly, resolver)
        provision.register_functions(assembly, resolver)
        provision.register_remaining(assembly, resolver)
        provision.resolve_outputs(assembly, resolver)
        sandbox = Sandbox(assembly, resolver, work, iam_mode=OFF)
        yield World(assembly, resolver, sandbox, dynamodb.endpoint, moto.endpoint, tables.stream_arns)
