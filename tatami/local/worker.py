"""One Lambda execution environment: a process that imports a handler once and serves invocations.

Run as `python -m tatami.local.worker` by `functions.FunctionPool`. Requests arrive as JSON lines on
stdin; replies leave as JSON lines on the original stdout. The handler's own prints and logs go to
stderr (stdout is redirected there), which the parent prefixes with the function's name.

This module imports only the standard library before the handler, so the handler's environment
variables are in place before boto3 or Powertools read them (as in Lambda's init phase).
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
import traceback
from typing import Any

from tatami.local import traffic  # standard library only until install_from_environment() runs


class LambdaContext:
    """The attributes and method of Lambda's Python context object."""

    def __init__(self, request_id: str, deadline_ms: int) -> None:
        self.aws_request_id = request_id
        self.function_name = os.environ["AWS_LAMBDA_FUNCTION_NAME"]
        self.function_version = "$LATEST"
        self.memory_limit_in_mb = os.environ["AWS_LAMBDA_FUNCTION_MEMORY_SIZE"]
        self.invoked_function_arn = os.environ["TATAMI_FUNCTION_ARN"]
        self.log_group_name = os.environ["AWS_LAMBDA_LOG_GROUP_NAME"]
        self.log_stream_name = os.environ["AWS_LAMBDA_LOG_STREAM_NAME"]
        self.identity = None
        self.client_context = None
        self._deadline_ms = deadline_ms

    def get_remaining_time_in_millis(self) -> int:
        return max(0, self._deadline_ms - int(time.time() * 1000))


def _error(exc: BaseException, error_type: str | None = None) -> dict[str, Any]:
    return {
        "errorMessage": str(exc),
        "errorType": error_type or type(exc).__name__,
        "stackTrace": traceback.format_tb(exc.__traceback__),
    }


def _load_handler() -> tuple[Any, dict[str, Any] | None]:
    module_name, _, function_name = os.environ["_HANDLER"].rpartition(".")
    try:
        return getattr(importlib.import_module(module_name), function_name), None
    except Exception as exc:  # noqa: BLE001 - Lambda reports init failures on every invoke
        traceback.print_exc()
        return None, _error(exc, "Runtime.ImportModuleError")


def _invoke(handler: Any, request: dict[str, Any]) -> str:
    """Run one invocation; the reply line carries the result or the error as Lambda reports it."""
    request_id = request["request_id"]
    print(f"START RequestId: {request_id} Version: $LATEST", flush=True)
    started = time.perf_counter()
    try:
        result = handler(request["event"], LambdaContext(request_id, request["deadline_ms"]))
    except Exception as exc:  # noqa: BLE001 - an unhandled error is the invocation's result
        traceback.print_exc()
        reply = {"ok": False, "error": _error(exc)}
    else:
        try:
            return _finish(request_id, started, json.dumps({"ok": True, "result": result}))
        except (TypeError, ValueError) as exc:
            reply = {"ok": False, "error": _error(exc, "Runtime.MarshalError")}
    return _finish(request_id, started, json.dumps(reply))


def _finish(request_id: str, started: float, reply: str) -> str:
    elapsed_ms = (time.perf_counter() - started) * 1000
    print(f"END RequestId: {request_id}", flush=True)
    print(f"REPORT RequestId: {request_id}\tDuration: {elapsed_ms:.2f} ms", flush=True)
    return reply


def main() -> None:
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.path[:0] = json.loads(os.environ.pop("TATAMI_SYS_PATH"))
    traffic.install_from_environment()  # before the handler creates any DynamoDB client
    handler, init_error = _load_handler()
    replies.write(json.dumps({"ready": init_error is None}) + "\n")
    for line in sys.stdin:
        request = json.loads(line)
        if init_error:
            replies.write(json.dumps({"ok": False, "error": init_error}) + "\n")
        else:
            replies.write(_invoke(handler, request) + "\n")


if __name__ == "__main__":
    main()
