"""The console for a deployed stack (`tatami console`): the same page on 127.0.0.1, its data read with
the user's AWS credentials, and every API call the page makes forwarded to the stack's API signed with
SigV4 (botocore's signer), so the API stays IAM-only and nothing listens beyond loopback.

What only a local cloud knows (recorded traffic, stream backlogs, invocations, the IAM report) is
said to be so, not guessed: in AWS those live in CloudWatch.
"""

from __future__ import annotations

import re
import threading
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

import boto3
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest

from tatami.console import tables
from tatami.console.http import CONSOLE_PATH, Console
from tatami.console.sources import indexed_tables, output_labels
from tatami.local.proxy import Reply, RequestData, message
from tatami_functions.common.stack_outputs import OUTPUT_API_URL
from zindex import IndexedTable

LOCAL_ONLY = "recorded by a local cloud only; for a deployed stack, CloudWatch has it"
FORWARDED_HEADERS = ("content-type", "accept", "idempotency-key")
UPSTREAM_TIMEOUT_SECONDS = 30.0


class DeployedSource:
    """The console's data from a deployed stack: its outputs, DynamoDB and SQS in the user's account."""

    def __init__(self, name: str, outputs: Mapping[str, str], session: boto3.Session) -> None:
        self.name, self.outputs, self.session = name, dict(outputs), session
        self._dynamodb: Any = None

    def overview(self) -> dict[str, Any]:
        return {"mode": "deployed", "name": f"stack {self.name}", "api_url": self.outputs.get(OUTPUT_API_URL)}

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
        if self._dynamodb is None:
            self._dynamodb = self.session.client("dynamodb")
        return self._dynamodb

    def indexed_tables(self) -> dict[str, IndexedTable]:
        return indexed_tables(self.outputs)

    def traffic(self, scale: float) -> dict[str, Any]:
        return {"unavailable": f"DynamoDB traffic is {LOCAL_ONLY} (Contributor Insights)"}

    def operations(self) -> dict[str, Any]:
        """The failure queues' depths (counted, not peeked: a receive in AWS counts against the message)."""
        sqs = self.session.client("sqs")
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


class ConsoleServer:
    """127.0.0.1:port: /console from the console, everything else through `forward`."""

    def __init__(self, console: Console, forward: Callable[[RequestData], Reply], port: int) -> None:
        handler = type("Handler", (_Handler,), {"console": console, "forward": staticmethod(forward)})
        self.server = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{CONSOLE_PATH}"
        self._thread = threading.Thread(target=self.server.serve_forever, name="console", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class _Handler(BaseHTTPRequestHandler):
    console: Console
    forward: Callable[[RequestData], Reply]
    protocol_version = "HTTP/1.1"

    def do_request(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        split = urlsplit(self.path)
        request = RequestData(
            method=self.command,
            path=unquote(split.path) or "/",
            query=split.query,
            headers=list(self.headers.items()),
            body=body,
            client_ip=self.client_address[0],
            host=self.headers.get("host", "127.0.0.1"),
            request_id=str(uuid.uuid4()),
        )
        mine = request.path == CONSOLE_PATH or request.path.startswith(CONSOLE_PATH + "/")
        reply = self.console(request) if mine else self.forward(request)
        self.send_response(reply.status)
        for name, value in reply.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(reply.body)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("do_"):  # every method: the API decides what it answers
            return self.do_request
        raise AttributeError(name)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the console's own requests are not worth a line each."""
