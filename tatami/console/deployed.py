"""The console for a deployed stack (`tatami console`): the same page on 127.0.0.1, its data read with
the user's AWS credentials, and every API call the page makes forwarded to the stack's API signed with
SigV4 (botocore's signer), so the API stays IAM-only and nothing listens beyond loopback.

What only a local cloud knows (recorded traffic, stream backlogs, invocations, the IAM report) is
said to be so, not guessed: in AWS those live in CloudWatch.
"""

from __future__ import annotations

import functools
import re
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

import boto3
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest

from tatami.console import tables
from tatami.console.http import CONSOLE_PATH, Console
from tatami.console.sources import output_labels
from tatami.local.functions.pool import Invocation
from tatami.local.gateway.proxy import Reply, RequestData, message
from tatami.local.gateway.routes import RouteTable
from tatami.local.gateway.server import ApiGateway
from tatami.target import indexed_tables
from tatami_functions.stack_outputs import OUTPUT_API_URL
from zindex import IndexedTable

LOCAL_ONLY = "recorded by a local cloud only; for a deployed stack, CloudWatch has it"
FORWARDED_HEADERS = ("content-type", "accept", "idempotency-key")
UPSTREAM_TIMEOUT_SECONDS = 30.0


class DeployedSource:
    """The console's data from a deployed stack: its outputs, DynamoDB and SQS in the user's account."""

    def __init__(self, name: str, outputs: Mapping[str, str], session: boto3.Session) -> None:
        self.name, self.outputs, self.session = name, dict(outputs), session

    def overview(self) -> dict[str, Any]:
        return {"mode": "deployed", "name": f"stack {self.name}", "api_url": self.outputs.get(OUTPUT_API_URL)}

    @functools.cache  # noqa: B019 - described once (two calls a table), not on every page of items
    def tables(self) -> list[dict[str, Any]]:
        found = []
        for name, label in output_labels(self.outputs).items():
            table = self.dynamodb().describe_table(TableName=name)["Table"]
            ttl = self.dynamodb().describe_time_to_live(TableName=name)["TimeToLiveDescription"]
            enabled = ttl.get("TimeToLiveStatus") == "ENABLED"
            spec = {"Enabled": enabled, "AttributeName": ttl.get("AttributeName")}
            found.append(tables.describe(name, label, {**table, "TimeToLiveSpecification": spec}))
        return found

    def dynamodb(self) -> Any:
        return self._client("dynamodb")

    @functools.cache  # noqa: B019 - one source per server, for the server's life: made once
    def _client(self, service: str) -> Any:
        return self.session.client(service)

    def indexed_tables(self) -> dict[str, IndexedTable]:
        return indexed_tables(self.outputs)

    def traffic(self, scale: float) -> dict[str, Any]:
        return {"unavailable": f"DynamoDB traffic is {LOCAL_ONLY} (Contributor Insights)"}

    def operations(self) -> dict[str, Any]:
        """The failure queues' depths (counted, not peeked: a receive in AWS counts against the message)."""
        sqs = self._client("sqs")
        queues = []
        for key, url in sorted(self.outputs.items()):
            if key.endswith("QueueUrl"):
                found = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"])
                count = int(found["Attributes"]["ApproximateNumberOfMessages"])
                queues.append({"queue": key, "url": url, "fed_by": "", "count": count, "messages": []})
        return {
            "unavailable": f"Stream backlogs, invocations and the IAM report are {LOCAL_ONLY}.",
            "queues": queues,
        }


class SigningProxy:
    """Forwards a request to the stack's API, signed with SigV4 for execute-api."""

    def __init__(self, api_url: str, session: boto3.Session) -> None:
        credentials = session.get_credentials()
        if credentials is None:
            raise ValueError("no AWS credentials found: configure them (`aws configure`, AWS_PROFILE, ...)")
        self.api_url = api_url.rstrip("/")
        found = re.search(r"\.execute-api\.([a-z0-9-]+)\.amazonaws\.com", api_url)
        region = found.group(1) if found else session.region_name
        if not region:
            raise ValueError(f"cannot tell the region of {api_url}: set AWS_DEFAULT_REGION")
        self.signer = SigV4Auth(credentials, "execute-api", region)

    def __call__(self, request: RequestData) -> Reply:
        url = f"{self.api_url}{request.path}" + (f"?{request.query}" if request.query else "")
        headers = {k: v for k, v in request.headers if k.lower() in FORWARDED_HEADERS}
        signed = AWSRequest(method=request.method, url=url, data=request.body, headers=headers)
        self.signer.add_auth(signed)
        prepared = signed.prepare()
        upstream = urllib.request.Request(
            prepared.url, data=request.body or None, headers=dict(prepared.headers), method=request.method
        )
        try:
            with urllib.request.urlopen(upstream, timeout=UPSTREAM_TIMEOUT_SECONDS) as response:
                return Reply(response.status, response.read(), _content_type(response.headers))
        except urllib.error.HTTPError as exc:
            return Reply(exc.code, exc.read(), _content_type(exc.headers))
        except OSError as exc:
            return message(502, f"the stack's API did not answer: {exc}")


def _content_type(headers: Any) -> tuple[tuple[str, str], ...]:
    return (("Content-Type", headers.get("content-type", "application/json")),)


def console_server(console: Console, forward: Callable[[RequestData], Reply], port: int) -> ApiGateway:
    """127.0.0.1:port: /console from the console, every other path through `forward`; the local API
    gateway's HTTP server with no routes of its own, only these two mounts (in this order)."""
    server = ApiGateway(RouteTable([]), _no_function, lambda _line: None, port, stage="")
    server.mount(CONSOLE_PATH, console)
    server.mount("/", forward)
    return server


def _no_function(function_id: str, _event: dict[str, Any], _timeout: float | None) -> Invocation:
    raise AssertionError(f"the console's server has no routes, so no function to invoke ({function_id})")
