"""Create the template's tables, queues and buckets locally and record their physical values.

Tables keep their keys, GSIs/LSIs and projections, stream and TTL settings; billing is always
on-demand locally (DynamoDB Local does not throttle). The returned `Resolver` maps every logical id
to the local value `Ref`/`Fn::GetAtt` would give in AWS.
"""

from __future__ import annotations

import secrets
from typing import Any

from tatami.local.assembly import Assembly, TableSpec, local_name
from tatami.local.intrinsics import LOCAL_ACCOUNT, LOCAL_REGION, Resolver

_INDEX_KEYS = ("IndexName", "KeySchema", "Projection")


def create_table_request(spec: TableSpec) -> dict[str, Any]:
    """The CreateTable request for a table spec (AWS::DynamoDB::Table or ::GlobalTable)."""
    props = spec.properties
    request: dict[str, Any] = {
        "TableName": spec.name,
        "KeySchema": props["KeySchema"],
        "AttributeDefinitions": props["AttributeDefinitions"],
        "BillingMode": "PAY_PER_REQUEST",
    }
    gsis = [{k: index[k] for k in _INDEX_KEYS} for index in props.get("GlobalSecondaryIndexes", [])]
    lsis = [{k: index[k] for k in _INDEX_KEYS} for index in props.get("LocalSecondaryIndexes", [])]
    if gsis:
        request["GlobalSecondaryIndexes"] = gsis
    if lsis:
        request["LocalSecondaryIndexes"] = lsis
    if spec.stream_view_type:
        request["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": spec.stream_view_type}
    return request


def create_tables(dynamodb: Any, assembly: Assembly, resolver: Resolver) -> dict[str, str]:
    """Create every table (replacing a leftover of the same name); returns logical id -> stream ARN."""
    existing = set(dynamodb.list_tables()["TableNames"])
    stream_arns: dict[str, str] = {}
    for spec in assembly.tables:
        if spec.name in existing:
            dynamodb.delete_table(TableName=spec.name)
        description = dynamodb.create_table(**create_table_request(spec))["TableDescription"]
        if spec.ttl_attribute:
            dynamodb.update_time_to_live(
                TableName=spec.name,
                TimeToLiveSpecification={"Enabled": True, "AttributeName": spec.ttl_attribute},
            )
        resolver.refs[spec.logical_id] = spec.name
        resolver.attributes[(spec.logical_id, "Arn")] = _arn("dynamodb", f"table/{spec.name}")
        if "LatestStreamArn" in description:
            stream_arns[spec.logical_id] = description["LatestStreamArn"]
            resolver.attributes[(spec.logical_id, "StreamArn")] = description["LatestStreamArn"]
    return stream_arns


def create_queues(sqs: Any, assembly: Assembly, resolver: Resolver) -> None:
    for logical_id, name in assembly.queues.items():
        url = sqs.create_queue(QueueName=name)["QueueUrl"]
        resolver.refs[logical_id] = url
        resolver.attributes[(logical_id, "Arn")] = _arn("sqs", name)
        resolver.attributes[(logical_id, "QueueName")] = name
        resolver.attributes[(logical_id, "QueueUrl")] = url


def create_buckets(s3: Any, assembly: Assembly, resolver: Resolver) -> None:
    for logical_id, name in assembly.buckets.items():
        s3.create_bucket(Bucket=name)
        resolver.refs[logical_id] = name
        resolver.attributes[(logical_id, "Arn")] = f"arn:aws:s3:::{name}"
        resolver.attributes[(logical_id, "DomainName")] = f"{name}.s3.amazonaws.com"
        resolver.attributes[(logical_id, "RegionalDomainName")] = f"{name}.s3.{LOCAL_REGION}.amazonaws.com"


def create_secrets(secretsmanager: Any, assembly: Assembly, resolver: Resolver) -> None:
    """Each secret gets a fresh random value (as GenerateSecretString gives one at deploy time)."""
    for logical_id, name in assembly.secrets.items():
        arn = secretsmanager.create_secret(Name=name, SecretString=secrets.token_hex(32))["ARN"]
        resolver.refs[logical_id] = arn  # a secret's Ref is its ARN


def register_functions(assembly: Assembly, resolver: Resolver) -> None:
    for logical_id, spec in assembly.functions.items():
        resolver.refs[logical_id] = spec.name
        resolver.attributes[(logical_id, "Arn")] = _arn("lambda", f"function:{spec.name}")


def register_remaining(assembly: Assembly, resolver: Resolver) -> None:
    """Resources the local cloud does not run still get a physical id and an ARN, as in AWS."""
    for stack in assembly.stacks:
        for logical_id, resource in stack.template.get("Resources", {}).items():
            if logical_id in resolver.refs:
                continue
            name = local_name(stack, logical_id)
            resolver.refs[logical_id] = name
            service = resource["Type"].split("::")[1].lower()
            resolver.attributes.setdefault((logical_id, "Arn"), _arn(service, name))


def resolve_outputs(assembly: Assembly, resolver: Resolver) -> dict[str, str]:
    """Every stack output (and export) resolved to its local value."""
    outputs: dict[str, str] = {}
    for stack in assembly.stacks:
        for key, output in stack.template.get("Outputs", {}).items():
            value = str(resolver.resolve(output["Value"]))
            outputs[key] = value
            export = output.get("Export", {}).get("Name")
            if export:
                resolver.exports[str(resolver.resolve(export))] = value
    return outputs


def _arn(service: str, resource: str) -> str:
    return f"arn:aws:{service}:{LOCAL_REGION}:{LOCAL_ACCOUNT}:{resource}"
