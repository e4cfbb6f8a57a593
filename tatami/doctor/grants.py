"""Grant and stream checks of `tatami doctor`: the template's policies against what the code does.

The policies are compiled exactly as the local cloud compiles them (iam/policies.py), against ARNs
made up offline for every resource, and evaluated with the same logic (iam/evaluate.py).
"""

from __future__ import annotations

from typing import Any

from tatami.doctor.checks import Finding, handler_modules, named_resources, sdk_calls
from tatami.local import provision
from tatami.local.assembly import Assembly, FunctionSpec
from tatami.local.iam.evaluate import evaluate
from tatami.local.iam.policies import compile_policies
from tatami.local.intrinsics import LOCAL_ACCOUNT, LOCAL_REGION, Resolver
from tatami.local.sandbox.workers import STREAM_READS

_CONTEXT = {"aws:securetransport": "true"}
# Calls checked at run time only: a transaction or batch spans tables with different actions.
_NOT_STATIC = {"TransactWriteItems", "TransactGetItems"}


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
    for logical_id, name in assembly.buckets.items():
        resolver.refs[logical_id] = name
        resolver.attributes[(logical_id, "Arn")] = f"arn:aws:s3:::{name}"
    for logical_id, name in assembly.secrets.items():
        resolver.refs[logical_id] = f"arn:aws:secretsmanager:{arn}:secret:{name}"
    provision.register_functions(assembly, resolver)
    provision.register_remaining(assembly, resolver)
    return resolver


def _resource_arn(resolver: Resolver, logical_id: str, service: str) -> str:
    return resolver.refs[logical_id] if service == "secretsmanager" else resolver.get_att(logical_id, "Arn")


def _candidates(policy: dict[str, Any], service: str, arn: str) -> list[str]:
    """Concrete resources to try for a named resource: itself, its indexes, its objects."""
    if service == "dynamodb":
        return [arn, f"{arn}/index/any"]
    if service == "s3":
        prefixes = [
            pattern.replace("*", "any")
            for statement in policy["identity"]
            for pattern in statement.get("resources", [])
            if str(pattern).startswith(arn + "/")
        ]
        return [arn, f"{arn}/any", *prefixes]
    return [arn]


def _allowed(policy: dict[str, Any], service: str, operation: str, resources: list[str]) -> bool:
    return any(evaluate(policy, f"{service}:{operation}", r, _CONTEXT).allowed for r in resources)


def check_grants(assembly: Assembly) -> list[Finding]:
    resolver = offline_resolver(assembly)
    findings = []
    for function_id, spec in assembly.functions.items():
        stack = next(s for s in assembly.stacks if function_id in s.template["Resources"])
        policy = compile_policies(stack, resolver, function_id)
        findings += _function_grants(policy, function_id, spec, assembly, resolver)
    return findings


def _function_grants(
    policy: dict[str, Any], function_id: str, spec: FunctionSpec, assembly: Assembly, resolver: Resolver
) -> list[Finding]:
    calls = {(s, op) for s, op in sdk_calls(spec) if op not in _NOT_STATIC}
    named = [
        (
            variable,
            logical_id,
            service,
            _candidates(policy, service, _resource_arn(resolver, logical_id, service)),
        )
        for variable, logical_id, service in named_resources(assembly, spec)
    ]
    findings = []
    for variable, logical_id, service, resources in named:
        operations = sorted(op for s, op in calls if s == service)
        if operations and not any(_allowed(policy, service, op, resources) for op in operations):
            message = f"names {logical_id} ({variable}) but may call none of {', '.join(operations)} on it"
            findings.append(Finding("grant", function_id, message))
    return findings


def check_streams(assembly: Assembly) -> list[Finding]:
    resolver = offline_resolver(assembly)
    findings, consumed = [], set()
    for mapping in assembly.stream_mappings:
        consumed.add(mapping.table_id)
        spec = assembly.functions[mapping.function_id]
        stack = next(s for s in assembly.stacks if mapping.function_id in s.template["Resources"])
        policy = compile_policies(stack, resolver, mapping.function_id)
        stream = resolver.get_att(mapping.table_id, "StreamArn")
        checks = [(action, stream) for action in STREAM_READS]
        if mapping.on_failure_queue_id:
            checks.append(("sqs:SendMessage", resolver.get_att(mapping.on_failure_queue_id, "Arn")))
        for action, resource in checks:
            decision = evaluate(policy, action, resource, _CONTEXT)
            if not decision.allowed:
                message = f"its role may not {action} on {resource} (Lambda refuses to create the mapping)"
                findings.append(Finding("stream", mapping.logical_id, message))
        if _returns_partial_failures(spec) and not mapping.report_batch_item_failures:
            message = (
                f"{mapping.function_id} returns batchItemFailures; the mapping lacks ReportBatchItemFailures"
            )
            findings.append(Finding("stream", mapping.logical_id, message))
    for table in assembly.tables:
        if table.stream_view_type and table.logical_id not in consumed:
            findings.append(Finding("stream", table.logical_id, "has a stream that no function consumes"))
    return findings


def _returns_partial_failures(spec: FunctionSpec) -> bool:
    return any(
        "process_partial_response" in text or "batchItemFailures" in text
        for text in (module.path.read_text(encoding="utf-8") for module in handler_modules(spec))
    )
