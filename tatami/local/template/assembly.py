"""Read a synthesized cloud assembly (cdk.out) into the specs the local cloud runs.

The template is the only source: tables, functions, routes and stream mappings are never declared
twice, so the local cloud cannot drift from what `cdk deploy` creates.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class AssemblyError(ValueError):
    """The cloud assembly is missing or has something the local cloud cannot run."""


@dataclass(frozen=True)
class Stack:
    name: str
    template: dict[str, Any]
    asset_dirs: dict[str, Path]  # asset hash (the S3 object key without .zip) -> folder in cdk.out
    construct_paths: dict[str, str] = field(default_factory=dict)  # logical id -> e.g. Tatami/Olap/Rule

    def resources(self, *types: str) -> Iterator[tuple[str, dict[str, Any]]]:
        for logical_id, resource in self.template.get("Resources", {}).items():
            if resource["Type"] in types:
                yield logical_id, resource.get("Properties", {})


@dataclass(frozen=True)
class TableSpec:
    logical_id: str
    name: str
    properties: dict[str, Any]

    @property
    def stream_view_type(self) -> str | None:
        spec = self.properties.get("StreamSpecification") or {}
        return spec.get("StreamViewType")

    @property
    def key_attributes(self) -> tuple[str, ...]:
        return tuple(key["AttributeName"] for key in self.properties["KeySchema"])

    @property
    def ttl_attribute(self) -> str | None:
        spec = self.properties.get("TimeToLiveSpecification") or {}
        return spec.get("AttributeName") if spec.get("Enabled") else None


@dataclass(frozen=True)
class FunctionSpec:
    logical_id: str
    name: str
    handler: str
    code_dir: Path
    layer_dirs: tuple[Path, ...]
    external_layers: tuple[Any, ...]
    environment: dict[str, Any]
    timeout_seconds: int
    memory_mb: int
    runtime: str


# The version every alias points at locally: the local cloud serves the template's code, which is the
# version `cdk deploy` publishes.
LOCAL_VERSION = "1"


@dataclass(frozen=True)
class AliasSpec:
    """An AWS::Lambda::Alias: what API Gateway and the stream mappings invoke when CodeDeploy shifts
    a function's traffic. Locally it serves the one version the template holds."""

    logical_id: str
    name: str  # the qualifier: `live` in arn:...:function:NAME:live
    function_id: str
    version_id: str | None  # the AWS::Lambda::Version it points at
    deployment_group_id: str | None  # the CodeDeploy group its UpdatePolicy names, if any


@dataclass(frozen=True)
class StreamMappingSpec:
    logical_id: str
    function_id: str
    table_id: str
    batch_size: int
    batching_window_seconds: int
    starting_position: str
    filter_patterns: tuple[dict[str, Any], ...]
    report_batch_item_failures: bool
    max_retries: int  # -1 = until the record expires
    max_record_age_seconds: int  # -1 = never
    bisect_on_error: bool
    on_failure_queue_id: str | None
    enabled: bool = True
    alias_id: str | None = None  # the alias FunctionName names, when it names one


@dataclass(frozen=True)
class RuleSpec:
    logical_id: str
    name: str
    construct_path: str  # e.g. Tatami/Export/Schedule: what `tatami local fire` accepts besides the ids
    schedule: str | None
    targets: tuple[tuple[str, Any], ...]  # (function logical id, Input or None)


@dataclass
class Assembly:
    """Everything of an app the local cloud serves; `stack_of` finds a logical id's stack."""

    stacks: list[Stack]
    tables: list[TableSpec] = field(default_factory=list)
    queues: dict[str, str] = field(default_factory=dict)  # logical id -> local queue name
    buckets: dict[str, str] = field(default_factory=dict)  # logical id -> local bucket name
    secrets: dict[str, str] = field(default_factory=dict)  # logical id -> local secret name
    functions: dict[str, FunctionSpec] = field(default_factory=dict)
    aliases: dict[str, AliasSpec] = field(default_factory=dict)
    stream_mappings: list[StreamMappingSpec] = field(default_factory=list)
    rules: list[RuleSpec] = field(default_factory=list)


def read_stacks(cdk_out: Path) -> list[Stack]:
    """The stacks of `cdk_out/manifest.json` with their templates and asset folders."""
    manifest_path = cdk_out / "manifest.json"
    if not manifest_path.is_file():
        raise AssemblyError(f"{manifest_path} not found: synthesize first (`python app.py`)")
    artifacts = json.loads(manifest_path.read_text())["artifacts"]
    asset_dirs: dict[str, Path] = {}
    for artifact in artifacts.values():
        if artifact["type"] == "cdk:asset-manifest":
            asset_dirs.update(_asset_dirs(cdk_out, cdk_out / artifact["properties"]["file"]))
    return [
        Stack(
            name=artifact.get("displayName", name),
            template=json.loads((cdk_out / artifact["properties"]["templateFile"]).read_text()),
            asset_dirs=asset_dirs,
            construct_paths=_construct_paths(cdk_out, artifact),
        )
        for name, artifact in artifacts.items()
        if artifact["type"] == "aws:cloudformation:stack"
    ]


def _construct_paths(cdk_out: Path, artifact: dict[str, Any]) -> dict[str, str]:
    """Logical id -> construct path, from the stack's metadata: `python app.py` writes it there always,
    while the template's `aws:cdk:path` only comes with the CDK CLI (path metadata)."""
    metadata = dict(artifact.get("metadata") or {})
    extra = artifact.get("additionalMetadataFile")
    if extra and (cdk_out / extra).is_file():
        metadata.update(json.loads((cdk_out / extra).read_text()))
    return {
        str(entry["data"]): path.strip("/")
        for path, entries in metadata.items()
        for entry in entries
        if entry.get("type") == "aws:cdk:logicalId"
    }


def _asset_dirs(cdk_out: Path, assets_manifest: Path) -> dict[str, Path]:
    files = json.loads(assets_manifest.read_text()).get("files", {})
    return {
        asset_hash: cdk_out / asset["source"]["path"]
        for asset_hash, asset in files.items()
        if asset["source"].get("packaging") == "zip"
    }


def local_name(stack: Stack, logical_id: str) -> str:
    """The physical name a resource gets locally: readable and unique per stack."""
    return f"{stack.name}-{logical_id}"


def load_assembly(cdk_out: Path) -> Assembly:
    """Parse every resource kind the local cloud runs, from every stack of the app."""
    stacks = read_stacks(cdk_out)
    assembly = Assembly(stacks=stacks)
    for stack in stacks:
        for logical_id, props in stack.resources("AWS::DynamoDB::Table", "AWS::DynamoDB::GlobalTable"):
            assembly.tables.append(TableSpec(logical_id, local_name(stack, logical_id), props))
        for logical_id, _props in stack.resources("AWS::SQS::Queue"):
            assembly.queues[logical_id] = local_name(stack, logical_id)
        for logical_id, _props in stack.resources("AWS::S3::Bucket"):
            assembly.buckets[logical_id] = local_name(stack, logical_id).lower()
        for logical_id, _props in stack.resources("AWS::SecretsManager::Secret"):
            assembly.secrets[logical_id] = local_name(stack, logical_id)
        _load_lambda(stack, assembly)
        for logical_id, props in stack.resources("AWS::Events::Rule"):
            metadata = stack.template["Resources"][logical_id].get("Metadata", {})
            path = metadata.get("aws:cdk:path") or stack.construct_paths.get(logical_id, "")
            assembly.rules.append(_rule(stack, logical_id, path.removesuffix("/Resource"), props))
    return assembly


def _load_lambda(stack: Stack, assembly: Assembly) -> None:
    """The stack's functions, their aliases and their stream mappings."""
    for logical_id, props in stack.resources("AWS::Lambda::Function"):
        assembly.functions[logical_id] = _function(stack, logical_id, props)
    for logical_id, props in stack.resources("AWS::Lambda::Alias"):
        assembly.aliases[logical_id] = _alias(stack, logical_id, props)
    for logical_id, props in stack.resources("AWS::Lambda::EventSourceMapping"):
        mapping = _stream_mapping(stack, logical_id, props)
        if mapping is not None:
            assembly.stream_mappings.append(mapping)


def _function(stack: Stack, logical_id: str, props: dict[str, Any]) -> FunctionSpec:
    code = props.get("Code", {})
    if "ZipFile" in code:
        raise AssemblyError(f"function {logical_id}: inline code is not supported; use Code.from_asset")
    layer_dirs: list[Path] = []
    external: list[Any] = []
    for layer in props.get("Layers", []):
        layer_id = layer.get("Ref") if isinstance(layer, dict) else None
        if layer_id is None:
            external.append(layer)  # a public layer such as Powertools: the local Python provides it
            continue
        layer_code = stack.template["Resources"][layer_id]["Properties"]["Content"]
        layer_dirs.append(_asset_dir(stack, layer_id, layer_code))
    return FunctionSpec(
        logical_id=logical_id,
        name=local_name(stack, logical_id),
        handler=props["Handler"],
        code_dir=_asset_dir(stack, logical_id, code),
        layer_dirs=tuple(layer_dirs),
        external_layers=tuple(external),
        environment=props.get("Environment", {}).get("Variables", {}),
        timeout_seconds=int(props.get("Timeout", 3)),
        memory_mb=int(props.get("MemorySize", 128)),
        runtime=str(props.get("Runtime", "python3")),
    )


def _asset_dir(stack: Stack, logical_id: str, code: dict[str, Any]) -> Path:
    key = code.get("S3Key")
    asset_hash = key.removesuffix(".zip") if isinstance(key, str) else None
    folder = stack.asset_dirs.get(asset_hash or "")
    if folder is None or not folder.is_dir():
        raise AssemblyError(f"{logical_id}: asset {key!r} has no folder in the cloud assembly")
    return folder


def target_id(value: Any, attribute: str | None = None) -> str | None:
    """The logical id behind `{"Ref": id}` or `{"Fn::GetAtt": [id, attribute]}`."""
    if not isinstance(value, dict):
        return None
    if "Ref" in value and attribute is None:
        return str(value["Ref"])
    get_att = value.get("Fn::GetAtt")
    if get_att and (attribute is None or get_att[1] == attribute):
        return str(get_att[0])
    return None


def invoked(stack: Stack, value: Any) -> tuple[str, str | None] | None:
    """The function a FunctionName or an integration URI names, and the alias it names it through, if
    any: a function's Fn::GetAtt Arn or Ref, or an alias's Ref (its ARN), wherever it sits in the
    value (CDK writes an alias's FunctionName as `Fn::Join` of the name split out of that ARN and
    `:live`). None when it names neither.

    >>> invoked(Stack("S", {"Resources": {}}, {}), {"Fn::Join": ["", [{"Fn::GetAtt": ["Fn", "Arn"]}]]})
    ('Fn', None)
    """
    if isinstance(value, list):
        return next((found for item in value if (found := invoked(stack, item))), None)
    if not isinstance(value, dict):
        return None
    if (function_id := target_id(value, "Arn")) is not None:
        return function_id, None
    resource = stack.template.get("Resources", {}).get(target_id(value) or "", {})
    if resource.get("Type") == "AWS::Lambda::Function":
        return str(target_id(value)), None
    if resource.get("Type") == "AWS::Lambda::Alias":
        behind = target_id(resource["Properties"]["FunctionName"])
        return (behind, target_id(value)) if behind else None
    return next((found for item in value.values() if (found := invoked(stack, item))), None)


def _alias(stack: Stack, logical_id: str, props: dict[str, Any]) -> AliasSpec:
    function_id = target_id(props.get("FunctionName"))
    if function_id is None or function_id not in stack.template["Resources"]:
        raise AssemblyError(f"alias {logical_id}: FunctionName must reference a function of the app")
    update = stack.template["Resources"][logical_id].get("UpdatePolicy", {})
    group = update.get("CodeDeployLambdaAliasUpdate", {}).get("DeploymentGroupName")
    return AliasSpec(
        logical_id=logical_id,
        name=str(props["Name"]),
        function_id=function_id,
        version_id=target_id(props.get("FunctionVersion"), "Version"),
        deployment_group_id=target_id(group),
    )


def _stream_mapping(stack: Stack, logical_id: str, props: dict[str, Any]) -> StreamMappingSpec | None:
    table_id = target_id(props.get("EventSourceArn"), "StreamArn")
    if table_id is None:
        return None  # SQS or Kinesis mappings are not run locally
    target = invoked(stack, props["FunctionName"])
    if target is None:
        raise AssemblyError(f"{logical_id}: FunctionName must reference a function of the app or its alias")
    function_id, alias_id = target
    on_failure = props.get("DestinationConfig", {}).get("OnFailure", {}).get("Destination")
    filters = props.get("FilterCriteria", {}).get("Filters", [])
    return StreamMappingSpec(
        logical_id=logical_id,
        function_id=function_id,
        table_id=table_id,
        batch_size=int(props.get("BatchSize", 100)),
        batching_window_seconds=int(props.get("MaximumBatchingWindowInSeconds", 0)),
        starting_position=str(props.get("StartingPosition", "TRIM_HORIZON")),
        filter_patterns=tuple(json.loads(f["Pattern"]) for f in filters),
        report_batch_item_failures="ReportBatchItemFailures" in props.get("FunctionResponseTypes", []),
        max_retries=int(props.get("MaximumRetryAttempts", -1)),
        max_record_age_seconds=int(props.get("MaximumRecordAgeInSeconds", -1)),
        bisect_on_error=bool(props.get("BisectBatchOnFunctionError", False)),
        on_failure_queue_id=target_id(on_failure, "Arn"),
        enabled=bool(props.get("Enabled", True)),
        alias_id=alias_id,
    )


def _rule(stack: Stack, logical_id: str, construct_path: str, props: dict[str, Any]) -> RuleSpec:
    targets = tuple(
        (function_id, target.get("Input"))
        for target in props.get("Targets", [])
        if (function_id := target_id(target.get("Arn"), "Arn")) is not None
    )
    return RuleSpec(
        logical_id, local_name(stack, logical_id), construct_path, props.get("ScheduleExpression"), targets
    )
