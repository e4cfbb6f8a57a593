"""One cold start: enter the sandbox as a local cloud worker does, import the handler (init), then serve
one request (the first request), timing each in CPU and wall seconds; prints them as one JSON line.

    python -I -B probe.py EVENT_FILE [--export-api]

Run by bench/cold_start.py in a fresh interpreter per cold start, with the function's environment.
Standard library and `tatami.local` only before the handler: as in `tatami.local.functions.worker`,
whose context and X-Ray trace header it copies (Lambda sets `_X_AMZN_TRACE_ID` for each invocation,
and the tracer records subsegments only inside one). `--export-api` installs the local stand-in for
DynamoDB's export API inside the first request's clock (it loads botocore, which the function's first
client loads anyway), so the figure overstates rather than hides.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from tatami.local.functions.sandbox.enter import enter

TRACE_HEADER = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"


class Context:
    """The attributes of Lambda's context object a handler reads."""

    def __init__(self, arn: str) -> None:
        self.aws_request_id = "cold-start-1"
        self.function_name = os.environ["AWS_LAMBDA_FUNCTION_NAME"]
        self.function_version = "$LATEST"
        self.memory_limit_in_mb = os.environ["AWS_LAMBDA_FUNCTION_MEMORY_SIZE"]
        self.invoked_function_arn = arn
        self.log_group_name = os.environ["AWS_LAMBDA_LOG_GROUP_NAME"]
        self.log_stream_name = os.environ["AWS_LAMBDA_LOG_STREAM_NAME"]
        self._deadline = time.time() + 10

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.time()) * 1000))


def outcome(result: Any) -> str:
    """What the request came to, for the bench to check: an HTTP status, or a stream batch's failures."""
    if isinstance(result, dict) and "statusCode" in result:
        return str(result["statusCode"])
    if isinstance(result, dict) and "batchItemFailures" in result:
        return f"{len(result['batchItemFailures'])} failed"
    return "done"


def main() -> None:
    event = json.loads(Path(sys.argv[1]).read_text())
    install_export_api = None
    if "--export-api" in sys.argv:
        from tatami.local.engines import exports  # before the sandbox closes; installed below

        install_export_api = exports.install
    arn = enter()["function_arn"]
    module, _, name = os.environ["_HANDLER"].rpartition(".")
    wall, cpu = time.perf_counter(), time.process_time()
    handler = getattr(importlib.import_module(module), name)
    init = (time.process_time() - cpu, time.perf_counter() - wall)
    os.environ["_X_AMZN_TRACE_ID"] = TRACE_HEADER
    wall, cpu = time.perf_counter(), time.process_time()
    if install_export_api is not None:
        install_export_api()
    result = handler(event, Context(arn))
    first = (time.process_time() - cpu, time.perf_counter() - wall)
    print(json.dumps({"init": init, "first": first, "outcome": outcome(result)}))


if __name__ == "__main__":
    main()
