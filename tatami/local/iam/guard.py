"""The botocore hook that authorizes every SDK call of a worker before it leaves the process.

Installed by the worker before the handler is imported: it adds a `before-parameter-build` handler
to botocore's built-in handlers, so every session (boto3's default one, Powertools' own) gets it.
A refused call raises the `ClientError` AWS would return (`AccessDeniedException`, or `AccessDenied`
for S3 and SQS) with AWS's message, and logs one line; in `soft` mode the line is logged and the
call goes on. Every (action, resource, decision) seen is appended once to the function's usage file,
which `tatami local status --iam-report` reads. Standard library and botocore only (the worker's
import path is the Lambda runtime's).
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Mapping
from typing import Any

from tatami.local.iam.evaluate import evaluate
from tatami.local.iam.requests import IamRequest, requests_for

ENFORCE, SOFT, OFF = "enforce", "soft", "off"
MODES = (ENFORCE, SOFT, OFF)
_ACCESS_DENIED = {"s3": "AccessDenied", "sqs": "AccessDenied"}


class Guard:
    """Decides each call of one function; `check` is the botocore handler."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.mode = str(config["mode"])
        self.policy = config["policy"]
        self.region, self.account = str(config["region"]), str(config["account"])
        self.session_arn = str(config["session_arn"])
        self._usage_path = config.get("usage_file")
        self._seen: set[tuple[str, str, bool]] = set()
        self._lock = threading.Lock()

    def check(self, params: Mapping[str, Any], model: Any, context: Any = None, **_: Any) -> None:
        service = model.service_model
        prefix = service.signing_name or service.endpoint_prefix
        found = requests_for(prefix, service.service_name, model.name, params, self.region, self.account)
        emulated = (context or {}).get("local_emulation")
        if emulated:  # a call a local stand-in makes for an AWS API: IAM checks that API's permission
            found = [IamRequest(emulated["action"], emulated["resource"], r.context) for r in found[:1]]
        for request in found:
            self.authorize(request, service.service_name, model.name)

    def authorize(self, request: IamRequest, service: str, operation: str) -> None:
        decision = evaluate(self.policy, request.action, request.resource, request.context)
        self._record(request, decision.allowed)
        if decision.allowed:
            return
        message = (
            f"User: {self.session_arn} is not authorized to perform: {request.action} "
            f"on resource: {request.resource} {decision.reason}"
        )
        if self.mode == SOFT:
            print(f"IAM (soft): {operation} would be refused in AWS: {message}", file=sys.stderr, flush=True)
            return
        print(f"IAM: {operation} refused: {message}", file=sys.stderr, flush=True)
        raise _client_error(_ACCESS_DENIED.get(service, "AccessDeniedException"), message, operation)

    def _record(self, request: IamRequest, allowed: bool) -> None:
        key = (request.action, request.resource, allowed)
        with self._lock:
            if key in self._seen:
                return
            self._seen.add(key)
            if self._usage_path:
                line = json.dumps({"action": key[0], "resource": key[1], "allowed": allowed})
                with open(self._usage_path, "a", encoding="utf-8") as usage:
                    usage.write(line + "\n")


def _client_error(code: str, message: str, operation: str) -> Exception:
    from botocore.exceptions import ClientError

    response: Any = {"Error": {"Code": code, "Message": message}, "ResponseMetadata": {"HTTPStatusCode": 403}}
    error: Exception = ClientError(response, operation)
    return error


def install(config: Mapping[str, Any]) -> Guard | None:
    """Authorize every botocore session created from now on in this process (None when `off`)."""
    if config.get("mode", OFF) == OFF:
        return None
    import botocore.handlers

    guard = Guard(config)
    botocore.handlers.BUILTIN_HANDLERS.append(("before-parameter-build", guard.check))
    return guard
