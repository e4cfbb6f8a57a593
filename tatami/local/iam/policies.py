"""Each function's policies, read from the synthesized template and resolved to local ARNs.

Identity-based: the inline policies of the function's role, every `AWS::IAM::Policy` and
`AWS::IAM::ManagedPolicy` attached to it, and the AWS managed policies it names (their documents
are in `MANAGED_POLICIES`; one the local cloud does not know is reported, never guessed).
Resource-based: the policies of the app's buckets (`AWS::S3::BucketPolicy`) and queues
(`AWS::SQS::QueuePolicy`), which apply to every function calling them.

The result is plain JSON (`evaluate.py` reads it inside the worker, with the standard library only).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from tatami.local.template.assembly import Stack, local_name, target_id
from tatami.local.template.intrinsics import LOCAL_ACCOUNT, Resolver, UnresolvableError

_LOGS = ["logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents"]
MANAGED_POLICIES: dict[str, list[dict[str, Any]]] = {
    "service-role/AWSLambdaBasicExecutionRole": [{"Effect": "Allow", "Action": _LOGS, "Resource": "*"}],
}


def role_arn(stack: Stack, role_id: str) -> str:
    return f"arn:aws:iam::{LOCAL_ACCOUNT}:role/{local_name(stack, role_id)}"


def compile_policies(stack: Stack, resolver: Resolver, function_id: str) -> dict[str, Any]:
    """The compiled policies of function `function_id` (see evaluate.py for the shape)."""
    props = stack.template["Resources"][function_id]["Properties"]
    role_id = target_id(props.get("Role"), "Arn")
    if role_id is None:
        raise ValueError(f"function {function_id}: its Role is not a role of the app")
    identity: list[dict[str, Any]] = []
    unknown: list[str] = []
    for statement in _identity_statements(stack, role_id, unknown):
        identity.append(_normalized(statement, resolver, resource_policy=False))
    return {
        "function": function_id,
        "role": role_id,
        "principal": role_arn(stack, role_id),
        "identity": identity,
        "resources": resource_policies(stack, resolver),
        "unknown_managed_policies": unknown,
    }


def _identity_statements(stack: Stack, role_id: str, unknown: list[str]) -> Iterator[Mapping[str, Any]]:
    role = stack.template["Resources"][role_id]["Properties"]
    for policy in role.get("Policies", []):
        yield from _statements(policy["PolicyDocument"])
    for arn in role.get("ManagedPolicyArns", []):
        name = _managed_name(arn)
        if name in MANAGED_POLICIES:
            yield from MANAGED_POLICIES[name]
        else:
            unknown.append(name or str(arn))
    for _, props in stack.resources("AWS::IAM::Policy", "AWS::IAM::ManagedPolicy"):
        if {"Ref": role_id} in props.get("Roles", []):
            yield from _statements(props["PolicyDocument"])


def _managed_name(arn: Any) -> str | None:
    """`service-role/AWSLambdaBasicExecutionRole` from the ARN CDK writes (a Fn::Join with the partition)."""
    if isinstance(arn, dict) and "Fn::Join" in arn:
        arn = "".join(part for part in arn["Fn::Join"][1] if isinstance(part, str))
    if isinstance(arn, str) and ":iam::aws:policy/" in arn:
        return arn.split(":iam::aws:policy/", 1)[1]
    return None


def resource_policies(stack: Stack, resolver: Resolver) -> dict[str, list[dict[str, Any]]]:
    """Resource ARN -> the statements of its bucket or queue policy."""
    found: dict[str, list[dict[str, Any]]] = {}
    for _, props in stack.resources("AWS::S3::BucketPolicy"):
        bucket = target_id(props.get("Bucket"))
        if bucket is not None:
            arn = resolver.get_att(bucket, "Arn")
            found.setdefault(arn, []).extend(
                _normalized(s, resolver, resource_policy=True) for s in _statements(props["PolicyDocument"])
            )
    for _, props in stack.resources("AWS::SQS::QueuePolicy"):
        for queue in props.get("Queues", []):
            queue_id = target_id(queue)
            if queue_id is not None:
                arn = resolver.get_att(queue_id, "Arn")
                found.setdefault(arn, []).extend(
                    _normalized(s, resolver, resource_policy=True)
                    for s in _statements(props["PolicyDocument"])
                )
    return found


def _statements(document: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    statements = document.get("Statement", [])
    return list(statements) if isinstance(statements, list) else [statements]


def _normalized(statement: Mapping[str, Any], resolver: Resolver, *, resource_policy: bool) -> dict[str, Any]:
    """A statement with its ARNs resolved; an ARN the local cloud cannot resolve never matches."""
    out: dict[str, Any] = {"effect": statement["Effect"], "sid": statement.get("Sid")}
    for key, name in (("Action", "actions"), ("NotAction", "not_actions")):
        if key in statement:
            out[name] = [str(a) for a in _listed(statement[key])]
    for key, name in (("Resource", "resources"), ("NotResource", "not_resources")):
        if key in statement:
            out[name] = [_resolved(r, resolver) for r in _listed(statement[key])]
    if "Condition" in statement:
        out["conditions"] = _resolved(statement["Condition"], resolver)
    if resource_policy:
        out["principals"] = _principals(statement.get("Principal", "*"), resolver)
    return out


def _principals(principal: Any, resolver: Resolver) -> list[str]:
    if principal == "*":
        return ["*"]
    names: list[str] = []
    for kind, values in dict(principal).items():
        for value in _listed(values):
            text = _resolved(value, resolver)
            names.append(text if kind == "AWS" else f"{kind}:{text}")
    return names


def _resolved(value: Any, resolver: Resolver) -> Any:
    try:
        return resolver.resolve(value)
    except UnresolvableError as exc:
        return f"unresolvable ({exc})"


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]
