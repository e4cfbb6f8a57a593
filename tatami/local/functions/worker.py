"""One Lambda execution environment: a process that imports a handler once and serves invocations.

Run as `python -m tatami.local.functions.worker` by `pool.FunctionPool`. Requests arrive as JSON
lines on stdin; replies leave as JSON lines on the original stdout. The handler's own prints and logs go to
stderr (stdout is redirected there), which the parent prefixes with the function's name.

This module imports only the standard library before the handler (the hooks it installs, and what
they import, use nothing else), so the handler's environment variables are in place before boto3 or
Powertools read them (as in Lambda's init phase). Before the
handler is imported, `sandbox.enter` leaves on the import path only what Lambda would (the asset,
its layers, the runtime's boto3) and installs the IAM guard.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

from tatami.local.engines import commit_barrier, faults, traffic  # standard library only until installed
from tatami.local.functions.sandbox.enter import enter, max_memory_mb

# Set by the local cloud for a function whose role may call DynamoDB's export API: only its workers
# load the local stand-in for it (some 30 ms of imports at every cold start of the others).
EXPORT_API_ENV = "TATAMI_EXPORT_API"

_function_arn = ""  # this function's ARN, from the runtime file (the handler's environment lacks it)


class LambdaContext:
    """The attributes and method of Lambda's Python context object."""

    def __init__(
        self, request_id: str, deadline_ms: int, qualifier: str | None = None, version: str = "$LATEST"
    ) -> None:
        self.aws_request_id = request_id
        self.function_name = os.environ["AWS_LAMBDA_FUNCTION_NAME"]
        self.function_version = version
        self.memory_limit_in_mb = os.environ["AWS_LAMBDA_FUNCTION_MEMORY_SIZE"]
        # Invoked through an alias, Lambda hands the alias's ARN (Powertools logs it as function_arn).
        self.invoked_function_arn = f"{_function_arn}:{qualifier}" if qualifier else _function_arn
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
    request_id, version = request["request_id"], request.get("version", "$LATEST")
    print(f"START RequestId: {request_id} Version: {version}", flush=True)
    started = time.perf_counter()
    context = LambdaContext(request_id, request["deadline_ms"], request.get("qualifier"), version)
    try:
        outcome = {"ok": True, "result": handler(request["event"], context)}
    except Exception as exc:  # noqa: BLE001 - an unhandled error is the invocation's result
        traceback.print_exc()
        outcome = {"ok": False, "error": _error(exc)}
    used_mb = _finish(request_id, started)
    try:
        return json.dumps({**outcome, "max_memory_used_mb": used_mb})
    except (TypeError, ValueError) as exc:
        return json.dumps(
            {"ok": False, "error": _error(exc, "Runtime.MarshalError"), "max_memory_used_mb": used_mb}
        )


def _finish(request_id: str, started: float) -> int:
    """Print Lambda's END and REPORT lines; the invocation's peak memory in MB (the reply carries it)."""
    elapsed_ms = (time.perf_counter() - started) * 1000
    memory_mb, used_mb = int(os.environ["AWS_LAMBDA_FUNCTION_MEMORY_SIZE"]), max_memory_mb()
    print(f"END RequestId: {request_id}", flush=True)
    print(
        f"REPORT RequestId: {request_id}\tDuration: {elapsed_ms:.2f} ms\t"
        f"Memory Size: {memory_mb} MB\tMax Memory Used: {used_mb} MB",
        flush=True,
    )
    if used_mb > memory_mb:  # reported, not enforced: this process is not Lambda's exact footprint
        print(
            f"WARNING RequestId: {request_id} used {used_mb} MB, over the function's {memory_mb} MB: "
            "in Lambda this invocation would end with Runtime.OutOfMemory",
            flush=True,
        )
    return used_mb


def _export_api() -> Callable[[], None]:
    """The local stand-in's installer, imported now: once the sandbox closes, `tatami` is out of reach."""
    from tatami.local.engines import exports

    return exports.install


def main() -> None:
    # Ctrl-C reaches the terminal's whole process group; the local cloud stops its workers itself
    # (closing stdin, or SIGKILL on a second Ctrl-C), so a worker must not die mid-reply with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    global _function_arn
    install_exports = _export_api() if os.environ.pop(EXPORT_API_ENV, "") else None
    _function_arn = enter()["function_arn"]
    # They hook the sandbox's botocore, before the handler creates any client.
    if os.environ.get(faults.FAULTS_ENV):  # the reliability tests' injected faults
        faults.install_from_environment()
    traffic.install_from_environment()  # the DynamoDB traffic `tatami local insights` replays
    commit_barrier.install_from_environment()  # a transaction answered is a transaction on disk
    if install_exports is not None:
        install_exports()  # DynamoDB's export API, which DynamoDB Local lacks
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
