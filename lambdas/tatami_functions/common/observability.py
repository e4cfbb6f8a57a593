"""One Logger, Tracer and Metrics per function (Powertools reads service name and namespace from the env)."""

from __future__ import annotations

from functools import cache

from aws_lambda_powertools import Logger, Metrics, Tracer

logger = Logger()
# Not patched at init: the patch of every library X-Ray supports imports each one installed (about
# 60 ms of CPU at a cold start), and even botocore's alone imports botocore.client (about 100 ms).
# The functions call AWS through botocore only, and `trace_aws_calls` patches it with the first client.
tracer = Tracer(auto_patch=False)
metrics = Metrics()


@cache
def trace_aws_calls() -> None:
    """Trace every botocore call from now on (X-Ray wraps the client class, so clients made before are
    traced too). The client makers call it before the function's first client (`common.clients`,
    `common.repository`, `common.index_search`); once per execution environment."""
    tracer.patch(["botocore"])
