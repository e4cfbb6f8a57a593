"""Where a CLI command acts: the running local cloud (`--local`) or the deployed stack in AWS.

Both are described the same way: the stack's outputs (table names, queue URLs, the API URL) and
how to build boto3 clients. Commands never hard-code a physical name.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
import click
from botocore.exceptions import BotoCoreError, ClientError

from tatami.clients import BULK_CALLS
from tatami.local.engines import traffic
from tatami.local.engines.processes import LOCAL_CREDENTIALS
from tatami.local.state import default_work_dir, read_state
from tatami.local.template.intrinsics import LOCAL_REGION
from tatami_functions.stack_outputs import STACK_NAME, stack_name
from zindex import IndexedTable

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud

ZINDEX_OUTPUT_SUFFIX = "ZIndex"  # each `<Name>ZIndex` output holds an indexed table's declaration


def indexed_tables(outputs: Mapping[str, str]) -> dict[str, IndexedTable]:
    """Every indexed table of a deployment by name (`places`, `orders`), from its `<Name>ZIndex` output."""
    return {
        key.removesuffix(ZINDEX_OUTPUT_SUFFIX).lower(): IndexedTable.from_json(value)
        for key, value in outputs.items()
        if key.endswith(ZINDEX_OUTPUT_SUFFIX)
    }


class TargetError(RuntimeError):
    """No deployment to act on; the message says how to get one."""


@dataclass(frozen=True)
class Target:
    name: str  # "local" or the stack name
    outputs: dict[str, str]
    dynamodb_endpoint: str | None = None
    other_endpoint: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    traffic_dir: Path | None = None  # local only: where the local cloud records DynamoDB traffic

    @property
    def is_local(self) -> bool:
        return self.dynamodb_endpoint is not None

    def output(self, key: str) -> str:
        try:
            return self.outputs[key]
        except KeyError:
            raise TargetError(
                f"stack output {key!r} not found on {self.name}: is the service deployed?"
            ) from None

    def client(self, service: str) -> Any:
        if not self.is_local:
            return boto3.client(service, config=BULK_CALLS.config)
        endpoint = self.dynamodb_endpoint if service.startswith("dynamodb") else self.other_endpoint
        return self.recorded(
            boto3.client(
                service,
                endpoint_url=endpoint,
                region_name=LOCAL_REGION,
                config=BULK_CALLS.config,
                **LOCAL_CREDENTIALS,
            )
        )

    def resource(self, service: str) -> Any:
        if not self.is_local:
            return boto3.resource(service, config=BULK_CALLS.config)
        resource = boto3.resource(
            service,
            endpoint_url=self.dynamodb_endpoint,
            region_name=LOCAL_REGION,
            config=BULK_CALLS.config,
            **LOCAL_CREDENTIALS,
        )
        self.recorded(resource.meta.client)
        return resource

    def recorded(self, client: Any) -> Any:
        """`client`, with its DynamoDB calls recorded for `tatami local insights` (local targets only)."""
        if self.traffic_dir is not None:
            traffic.attach(
                client, self.traffic_dir, " ".join(Path(arg).name for arg in sys.argv[:2]) or "cli"
            )
        return client


def local_target(work_dir: Path | None = None) -> Target:
    work_dir = work_dir or default_work_dir()
    state = read_state(work_dir)
    if not state or state.get("starting"):
        raise TargetError("no local cloud runs in this checkout: start it with `make run` (or drop --local)")
    return Target(
        "local",
        state["outputs"],
        state["dynamodb_endpoint"],
        state["moto_endpoint"],
        {"api_url": state["api_url"]},
        traffic_dir=traffic.session_directory(work_dir, state["pid"]),
    )


def cloud_target(cloud: LocalCloud) -> Target:
    """A local cloud started in this process as a CLI target, so sample loaders share the CLI's code path."""
    return Target(
        "local",
        cloud.outputs,
        cloud.dynamodb_endpoint,
        cloud.moto_endpoint,
        {"api_url": cloud.api_url},
        traffic_dir=cloud.traffic_dir,
    )


def aws_target(stack_name: str = STACK_NAME) -> Target:
    try:
        stacks = boto3.client("cloudformation").describe_stacks(StackName=stack_name)["Stacks"]
    except (ClientError, BotoCoreError) as exc:
        raise TargetError(
            f"cannot read stack {stack_name} ({exc}); deploy it with `npx cdk deploy --all` or use --local"
        ) from None
    outputs = {o["OutputKey"]: o["OutputValue"] for o in stacks[0].get("Outputs", [])}
    return Target(stack_name, outputs)


def resolve_target(local: bool) -> Target:
    """The running local cloud, or the deployed stack of the stage `tatami --stage` names."""
    return local_target() if local else aws_target(stack_name(current_stage()))


def current_stage() -> str | None:
    """The stage given to the `tatami` group (`--stage`, or TATAMI_STAGE); None outside a command."""
    context = click.get_current_context(silent=True)
    stage = context.find_root().params.get("stage") if context is not None else None
    return str(stage) if stage else None
