"""The grant check of `tatami doctor`: each function's role holds exactly what its code calls.

Both ways, per function, action and resource: a call of the code (`access.py`) that its role may not
make, and an action its role is granted on a resource that no call of the code (nor Lambda itself:
X-Ray, its stream mappings, its own log group) makes there. Lambda writes a function's logs with its
role, so a `logs:` grant is due on the function's own group and on nothing else: with another group
(or `*`, AWSLambdaBasicExecutionRole's) it could forge another function's EMF lines. The policies are
those the local cloud enforces (`iam/policies.py`), evaluated by its own logic, ignoring the
conditions of Allow statements (a request's condition keys, such as an S3 prefix, are not known
statically).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tatami.doctor.access import Access, function_access
from tatami.doctor.checks import Finding
from tatami.doctor.offline import (
    TLS,
    ignoring_conditions,
    name_of,
    names_of_arns,
    offline_resolver,
    resource_arn,
)
from tatami.doctor.streams import MAPPING_READS
from tatami.local.gateway.routes import read_routes
from tatami.local.iam.evaluate import evaluate, matches
from tatami.local.iam.policies import compile_policies
from tatami.local.template.assembly import Assembly, Stack, TableSpec, target_id
from tatami.local.template.intrinsics import LOCAL_ACCOUNT, LOCAL_REGION, Resolver

_LAMBDAS_OWN = ("xray:",)  # Lambda writes the function's traces with its role, on no resource


class _Function:
    """One function's policy, its code's calls and the concrete ARNs they act on."""

    def __init__(self, assembly: Assembly, resolver: Resolver, function_id: str, routes: set[Any]) -> None:
        stack = next(s for s in assembly.stacks if function_id in s.template["Resources"])
        self.policy = ignoring_conditions(compile_policies(stack, resolver, function_id))
        self.accesses = function_access(assembly, assembly.functions[function_id], routes)
        self.resolver, self.tables = resolver, {t.logical_id: t for t in assembly.tables}
        self.log_group = own_log_group(stack, resolver, function_id)
        self.mapped = [
            (action, resolver.get_att(m.table_id, "StreamArn"))
            for m in assembly.stream_mappings
            if m.function_id == function_id
            for action in MAPPING_READS
        ] + [
            ("sqs:SendMessage", resolver.get_att(m.on_failure_queue_id, "Arn"))
            for m in assembly.stream_mappings
            if m.function_id == function_id and m.on_failure_queue_id
        ]

    def arns(self, access: Access, logical_id: str) -> list[str]:
        """Concrete ARNs a call may name on one resource: the table or its indexes, the bucket or
        objects under each prefix its role names, an export of the table."""
        arn = resource_arn(self.resolver, logical_id, access.service)
        if access.service == "s3":
            granted = [r for s in self.policy["identity"] for r in s.get("resources", [])]
            return [arn, f"{arn}/any", *(r.replace("*", "any") for r in granted if r.startswith(arn + "/"))]
        if access.service != "dynamodb":
            return [arn]
        if access.action == "DescribeExport":
            return [f"{arn}/export/any"]
        indexes = [f"{arn}/index/{i['IndexName']}" for i in _indexes(self.tables.get(logical_id))]
        return {True: indexes or [f"{arn}/index/any"], False: [arn], None: [arn, *indexes]}[access.index]

    def allowed(self, access: Access) -> bool:
        if not access.resources:  # it names no resource of the app (Glue's catalog): any grant of it
            return any(self._grants(s, access.iam_action) for s in self.policy["identity"])
        return any(
            evaluate(self.policy, access.iam_action, arn, TLS).allowed
            for logical_id in access.resources
            for arn in self.arns(access, logical_id)
        )

    def writes_own_logs(self, pattern: str) -> bool:
        return pattern == self.log_group or pattern.startswith(self.log_group + ":")

    def used(self, action: str, pattern: str) -> bool:
        if any(matches(action, a, ignore_case=True) and matches(pattern, r) for a, r in self.mapped):
            return True
        return any(
            matches(action, access.iam_action, ignore_case=True)
            and (
                not access.resources
                or any(matches(pattern, arn) for i in access.resources for arn in self.arns(access, i))
            )
            for access in self.accesses
        )

    @staticmethod
    def _grants(statement: dict[str, Any], action: str) -> bool:
        actions = statement.get("actions", [])
        return statement["effect"] == "Allow" and any(matches(a, action, ignore_case=True) for a in actions)


def own_log_group(stack: Stack, resolver: Resolver, function_id: str) -> str:
    """The ARN of the group Lambda writes the function's logs to: its LoggingConfig's, or
    /aws/lambda/<name>."""
    props = stack.template["Resources"][function_id]["Properties"]
    group = target_id(props.get("LoggingConfig", {}).get("LogGroup"))
    if group is not None:
        return resolver.get_att(group, "Arn")
    return f"arn:aws:logs:{LOCAL_REGION}:{LOCAL_ACCOUNT}:log-group:/aws/lambda/{resolver.refs[function_id]}"


def _indexes(table: TableSpec | None) -> list[dict[str, Any]]:
    return list(table.properties.get("GlobalSecondaryIndexes", [])) if table else []


def check_grants(assembly: Assembly) -> list[Finding]:
    resolver = offline_resolver(assembly)
    names = names_of_arns(resolver)
    routes: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for stack in assembly.stacks:
        for route in read_routes(stack):
            if route.function_id:
                routes[route.function_id].add((route.method, route.resource_path))
    findings: set[Finding] = set()
    for function_id in assembly.functions:
        function = _Function(assembly, resolver, function_id, routes[function_id])
        findings |= _not_granted(function_id, function)
        findings |= _never_called(function_id, function, names)
    return sorted(findings)


def _not_granted(function_id: str, function: _Function) -> set[Finding]:
    missing = set()
    for access in function.accesses:
        if not function.allowed(access):
            target = f" on {access.label}" if access.resources else ""
            message = f"calls {access.iam_action}{target} ({access.where}), which its role is not granted"
            missing.add(Finding("grant", function_id, message))
    return missing


def _never_called(function_id: str, function: _Function, names: dict[str, str]) -> set[Finding]:
    unused = set()
    for statement in function.policy["identity"]:
        if statement["effect"] != "Allow":
            continue
        for action in statement.get("actions", []):
            for pattern in statement.get("resources", []):
                where = name_of(pattern, names)
                if action.startswith("logs:"):
                    if not function.writes_own_logs(pattern):
                        own = name_of(function.log_group, names)
                        message = f"is granted {action} on {where}, beyond its own log group {own}"
                        unused.add(Finding("grant", function_id, message))
                    continue
                if action.startswith(_LAMBDAS_OWN) or function.used(action, pattern):
                    continue
                message = f"is granted {action} on {where}, which its code never calls"
                unused.add(Finding("grant", function_id, message))
    return unused
