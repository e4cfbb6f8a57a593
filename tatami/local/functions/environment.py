"""The environment of a function's worker: what Lambda sets, the template's variables, local endpoints.

Built from scratch for every function, so each function sees only its own variables, as in Lambda:
the template's, Lambda's reserved ones, and what the local cloud must add (the SDK's endpoint
variables, tracing off for want of an X-Ray daemon). Nothing tells a function it runs locally: what
AWS offers and DynamoDB Local lacks, the local cloud answers itself (`engines.exports`).
`TATAMI_RUNTIME` names the worker's runtime file and is removed before the handler loads.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from tatami.local.engines import traffic
from tatami.local.engines.processes import LOCAL_CREDENTIALS
from tatami.local.template.assembly import FunctionSpec
from tatami.local.template.intrinsics import LOCAL_REGION


def function_environment(
    spec: FunctionSpec,
    declared: Mapping[str, str],
    runtime_file: Path,
    dynamodb_endpoint: str,
    moto_endpoint: str,
    traffic_dir: Path | None = None,
) -> dict[str, str]:
    """Lambda's reserved variables win over the template's, which win over the base.

    With `traffic_dir`, the worker records the function's DynamoDB traffic there (`traffic.ENV`,
    which the worker removes before the handler sees its environment).
    """
    runtime = {
        "AWS_LAMBDA_FUNCTION_NAME": spec.name,
        "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(spec.memory_mb),
        "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
        "AWS_LAMBDA_LOG_GROUP_NAME": f"/aws/lambda/{spec.name}",
        "AWS_LAMBDA_LOG_STREAM_NAME": "local",
        "AWS_EXECUTION_ENV": f"AWS_Lambda_{spec.runtime}",
        "AWS_REGION": LOCAL_REGION,
        "AWS_DEFAULT_REGION": LOCAL_REGION,
        "AWS_ACCESS_KEY_ID": LOCAL_CREDENTIALS["aws_access_key_id"],
        "AWS_SECRET_ACCESS_KEY": LOCAL_CREDENTIALS["aws_secret_access_key"],
        "AWS_ENDPOINT_URL": moto_endpoint,
        "AWS_ENDPOINT_URL_DYNAMODB": dynamodb_endpoint,
        "AWS_ENDPOINT_URL_DYNAMODB_STREAMS": dynamodb_endpoint,
        "LAMBDA_TASK_ROOT": str(spec.code_dir),
        "LAMBDA_RUNTIME_DIR": str(runtime_file.parent),
        "_HANDLER": spec.handler,
        "TATAMI_RUNTIME": str(runtime_file),
    }
    base = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "TZ": ":UTC",
        "PYTHONUNBUFFERED": "1",
        # X-Ray has no daemon locally; Powertools' tracer would fail to find a segment.
        "POWERTOOLS_TRACE_DISABLED": "true",
    }
    if traffic_dir is not None:
        runtime[traffic.ENV] = str(traffic_dir)
    return {**base, **declared, **runtime}
