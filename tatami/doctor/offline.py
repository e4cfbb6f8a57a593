"""The app's resources as the local cloud names them, made up offline for the static IAM checks.

The policies of the template are compiled exactly as the local cloud compiles them (iam/policies.py)
against these ARNs, and evaluated with the same logic (iam/evaluate.py).
"""

from __future__ import annotations

from typing import Any

from tatami.local.engines import provision
from tatami.local.template.assembly import Assembly
from tatami.local.template.intrinsics import LOCAL_ACCOUNT, LOCAL_REGION, Resolver

TLS = {"aws:securetransport": "true"}  # the SDK's calls go over TLS, which the resource policies demand


def offline_resolver(assembly: Assembly) -> Resolver:
    """Local-style names and ARNs for every resource, without starting anything."""
    resolver = Resolver(stack_name=assembly.stacks[0].name if assembly.stacks else "local")
    arn = f"{LOCAL_REGION}:{LOCAL_ACCOUNT}"
    for table in assembly.tables:
        resolver.refs[table.logical_id] = table.name
        resolver.attributes[(table.logical_id, "Arn")] = f"arn:aws:dynamodb:{arn}:table/{table.name}"
        resolver.attributes[(table.logical_id, "StreamArn")] = (
            f"arn:aws:dynamodb:{arn}:table/{table.name}/stream/0"
        )
    for logical_id, name in assembly.queues.items():
        resolver.refs[logical_id] = f"https://sqs.{LOCAL_REGION}.amazonaws.com/{LOCAL_ACCOUNT}/{name}"
        resolver.attributes[(logical_id, "Arn")] = f"arn:aws:sqs:{arn}:{name}"
        resolver.attributes[(logical_id, "QueueName")] = name
    for logical_id, name in assembly.buckets.items():
        resolver.refs[logical_id] = name
        resolver.attributes[(logical_id, "Arn")] = f"arn:aws:s3:::{name}"
    for logical_id, name in assembly.secrets.items():
        resolver.refs[logical_id] = f"arn:aws:secretsmanager:{arn}:secret:{name}"
    provision.register_functions(assembly, resolver)
    provision.register_remaining(assembly, resolver)
    return resolver


def resource_arn(resolver: Resolver, logical_id: str, service: str) -> str:
    return resolver.refs[logical_id] if service == "secretsmanager" else resolver.get_att(logical_id, "Arn")


def ignoring_conditions(policy: dict[str, Any]) -> dict[str, Any]:
    """The policy with its Allow statements' conditions dropped: what a request carries (an S3 prefix)
    is not known statically, so an Allow counts if some request could meet it; Denies stay whole."""

    def allow(statement: dict[str, Any]) -> dict[str, Any]:
        if statement["effect"] != "Allow":
            return statement
        return {key: value for key, value in statement.items() if key != "conditions"}

    return {**policy, "identity": [allow(s) for s in policy["identity"]]}


def names_of_arns(resolver: Resolver) -> dict[str, str]:
    """ARN (or a secret's ARN) -> logical id, to name a granted resource as the template does."""
    found = {value: key for (key, attribute), value in resolver.attributes.items() if attribute == "Arn"}
    found |= {value: key for key, value in resolver.refs.items() if value.startswith("arn:")}
    return found


def name_of(pattern: str, names: dict[str, str]) -> str:
    """`arn:...:table/Tatami-PlacesTable410DAFB6/index/*` -> `PlacesTable410DAFB6/index/*`."""
    for arn in sorted(names, key=len, reverse=True):
        if pattern == arn or pattern.startswith(arn + "/"):
            return names[arn] + pattern[len(arn) :]
    return pattern
