"""Create the template's tables, queues, buckets, secrets and Glue catalog locally and record their
physical values. With a data folder (--db-path), tables, buckets, queues and secrets that are already
there are kept, with what they hold.

Tables keep their keys, GSIs/LSIs and projections, stream and TTL settings; billing is always
on-demand locally (DynamoDB Local does not throttle). The returned `Resolver` maps every logical id
to the local value `Ref`/`Fn::GetAtt` would give in AWS.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from tatami.local.template.assembly import LOCAL_VERSION, Assembly, TableSpec, local_name
from tatami.local.template.intrinsics import LOCAL_ACCOUNT, LOCAL_REGION, Resolver

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


class ProvisionError(ValueError):
    """A resource cannot be created as the template describes it."""


@dataclass
class CreatedTables:
    stream_arns: dict[str, str] = field(default_factory=dict)  # logical id -> DynamoDB Local stream ARN
    reused: set[str] = field(default_factory=set)  # logical ids kept from a persistent database


def create_tables(dynamodb: Any, assembly: Assembly, resolver: Resolver) -> CreatedTables:
    """Create every table; with a persistent database (--db-path) keep those whose shape matches."""
    created = CreatedTables()
    for spec in assembly.tables:
        description = _existing_table(dynamodb, spec)
        if description is None:
            description = dynamodb.create_table(**create_table_request(spec))["TableDescription"]
            if spec.ttl_attribute:
                dynamodb.update_time_to_live(
                    TableName=spec.name,
                    TimeToLiveSpecification={"Enabled": True, "AttributeName": spec.ttl_attribute},
                )
        else:
            created.reused.add(spec.logical_id)
        resolver.refs[spec.logical_id] = spec.name
        resolver.attributes[(spec.logical_id, "Arn")] = _arn("dynamodb", f"table/{spec.name}")
        if "LatestStreamArn" in description:
            created.stream_arns[spec.logical_id] = description["LatestStreamArn"]
            resolver.attributes[(spec.logical_id, "StreamArn")] = description["LatestStreamArn"]
    return created


def _existing_table(dynamodb: Any, spec: TableSpec) -> dict[str, Any] | None:
    try:
        existing = dynamodb.describe_table(TableName=spec.name)["Table"]
    except dynamodb.exceptions.ResourceNotFoundException:
        return None
    if _shape(existing) != _shape(create_table_request(spec)):
        raise ProvisionError(
            f"table {spec.name} in the database folder has other keys, indexes or stream settings than "
            "the template: remove the folder given to --db-path (or choose another) to start afresh"
        )
    return dict(existing)


def _shape(table: dict[str, Any]) -> tuple[Any, ...]:
    """What must match between a kept table and the template: keys, indexes, stream view."""

    def indexes(kind: str) -> list[tuple[str, str]]:
        return sorted((i["IndexName"], json.dumps(i["KeySchema"])) for i in table.get(kind, []))

    stream = table.get("StreamSpecification") or {}
    return (
        json.dumps(table["KeySchema"]),
        indexes("GlobalSecondaryIndexes"),
        indexes("LocalSecondaryIndexes"),
        stream.get("StreamViewType"),
    )


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
    """Each secret gets a fresh random value (as GenerateSecretString gives one at deploy time), unless
    a data folder (--db-path) kept it: page tokens signed before a restart still verify."""
    for logical_id, name in assembly.secrets.items():
        try:
            arn = secretsmanager.create_secret(Name=name, SecretString=secrets.token_hex(32))["ARN"]
        except secretsmanager.exceptions.ResourceExistsException:
            arn = secretsmanager.describe_secret(SecretId=name)["ARN"]
        resolver.refs[logical_id] = arn  # a secret's Ref is its ARN


def create_glue_catalog(glue: Any, assembly: Assembly, resolver: Resolver) -> None:
    """Every Glue database, then every Glue table, as the template declares them (the export function
    points its tables at each new full export)."""
    for kind in ("AWS::Glue::Database", "AWS::Glue::Table"):
        for stack in assembly.stacks:
            for logical_id, resource in stack.template.get("Resources", {}).items():
                if resource["Type"] != kind:
                    continue
                properties = resolver.resolve(resource["Properties"])
                if kind == "AWS::Glue::Database":
                    glue.create_database(DatabaseInput=properties["DatabaseInput"])
                    resolver.refs[logical_id] = properties["DatabaseInput"]["Name"]
                else:
                    glue.create_table(
                        DatabaseName=properties["DatabaseName"], TableInput=properties["TableInput"]
                    )
                    resolver.refs[logical_id] = properties["TableInput"]["Name"]


def register_functions(assembly: Assembly, resolver: Resolver) -> None:
    """Functions, and their aliases and versions (a `Ref` of either is its qualified ARN): the local
    cloud serves each function's one version, the template's, as version 1."""
    for logical_id, spec in assembly.functions.items():
        resolver.refs[logical_id] = spec.name
        resolver.attributes[(logical_id, "Arn")] = _arn("lambda", f"function:{spec.name}")
    for alias in assembly.aliases.values():
        function_arn = resolver.attributes[(alias.function_id, "Arn")]
        resolver.refs[alias.logical_id] = f"{function_arn}:{alias.name}"
        if alias.version_id:
            resolver.refs[alias.version_id] = f"{function_arn}:{LOCAL_VERSION}"
            resolver.attributes[(alias.version_id, "Version")] = LOCAL_VERSION


def register_remaining(assembly: Assembly, resolver: Resolver) -> None:
    """Resources the local cloud does not run still get a physical id and an ARN, as in AWS (and a
    topic its name, which the alarms on its deliveries name)."""
    for stack in assembly.stacks:
        for logical_id, resource in stack.template.get("Resources", {}).items():
            if logical_id in resolver.refs:
                continue
            name = local_name(stack, logical_id)
            resolver.refs[logical_id] = name
            service = resource["Type"].split("::")[1].lower()
            resolver.attributes.setdefault((logical_id, "Arn"), _arn(service, name))
            if resource["Type"] == "AWS::SNS::Topic":
                resolver.attributes[(logical_id, "TopicName")] = name


def resolve_outputs(assembly: Assembly, resolver: Resolver) -> dict[str, str]:
    """Every stack output (and export) resolved to its local value."""
    outputs: dict[str, str] = {}
    for stack in assembly.stacks:
        for key, output in stack.template.get("Outputs", {}).items():
            value = str(resolver.resolve(output["Value"]))
            outputs[key] = value
            resolver.stack_outputs[(stack.name, key)] = value
            export = output.get("Export", {}).get("Name")
            if export:
                resolver.exports[str(resolver.resolve(export))] = value
    return outputs


def _arn(service: str, resource: str) -> str:
    return f"arn:aws:{service}:{LOCAL_REGION}:{LOCAL_ACCOUNT}:{resource}"
