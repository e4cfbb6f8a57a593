"""The stream checks of `tatami doctor`: each mapping's role may read its stream and write its failure
queue (Lambda refuses to create a mapping otherwise), a handler that returns partial batch failures has
`ReportBatchItemFailures`, and no table streams to nobody."""

from __future__ import annotations

from tatami.doctor.checks import Finding, handler_modules
from tatami.doctor.offline import TLS, offline_resolver
from tatami.local.iam.evaluate import evaluate
from tatami.local.iam.policies import compile_policies
from tatami.local.template.assembly import Assembly, FunctionSpec

# What Lambda's event-source mapping does with the function's role (AWSLambdaDynamoDBExecutionRole).
MAPPING_READS = (
    "dynamodb:DescribeStream",
    "dynamodb:GetRecords",
    "dynamodb:GetShardIterator",
    "dynamodb:ListStreams",
)


def check_streams(assembly: Assembly) -> list[Finding]:
    resolver = offline_resolver(assembly)
    findings, consumed = [], set()
    for mapping in assembly.stream_mappings:
        consumed.add(mapping.table_id)
        spec = assembly.functions[mapping.function_id]
        stack = next(s for s in assembly.stacks if mapping.function_id in s.template["Resources"])
        policy = compile_policies(stack, resolver, mapping.function_id)
        stream = resolver.get_att(mapping.table_id, "StreamArn")
        checks = [(action, stream) for action in MAPPING_READS]
        if mapping.on_failure_queue_id:
            checks.append(("sqs:SendMessage", resolver.get_att(mapping.on_failure_queue_id, "Arn")))
        for action, resource in checks:
            decision = evaluate(policy, action, resource, TLS)
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
