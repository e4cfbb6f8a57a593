"""`tatami console` for a deployed stack, against a copy of its outputs whose API is a fake upstream on
loopback that records what reaches it: the page is served, and every API call it makes arrives signed
with SigV4 for execute-api, a signature botocore recomputes from the recorded request."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import requests
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from tatami.local.engines import processes as engines
from tests.integration.console.conftest import Watched

CREDENTIALS = {"AWS_ACCESS_KEY_ID": "AKIDCONSOLETEST", "AWS_SECRET_ACCESS_KEY": "console-secret"}
TOKEN, REGION = "console-session-token", "eu-west-1"
TATAMI = Path(sys.executable).with_name("tatami")
ANSWER = {
    "items": [
        {"id": "tokyo", "name": "Tokyo", "latitude": 35.6895, "longitude": 139.69171, "population": 8336599}
    ],
    "next": None,
    "stats": {"items_read": 1, "items_returned": 1, "queries": 1, "consumed_rcu": 0.5, "plan": "z-ranges"},
    "plan": [
        {
            "plan": "z-ranges",
            "kind": "z-ranges",
            "index": "places-z",
            "cost": 1.0,
            "chosen": True,
            "estimate": {"items_read": 1, "items_returned": 1, "queries": 1, "consumed_rcu": 0.5},
        }
    ],
}


@dataclass
class Upstream:
    url: str
    received: list[dict[str, Any]] = field(default_factory=list)


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    """The stack's API, played on loopback: records each request and answers a search page."""
    found = Upstream("")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            found.received.append(
                {"method": self.command, "path": self.path, "headers": dict(self.headers), "body": body}
            )
            payload = json.dumps(ANSWER).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_PUT = do_GET

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    found.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield found
    server.shutdown()
    server.server_close()


@pytest.fixture
def deployed_console(upstream: Upstream, tmp_path: Path) -> Iterator[str]:
    """`tatami console --outputs-file` on a free port, with credentials from the environment only."""
    outputs = tmp_path / "outputs.json"  # as `cdk deploy --outputs-file` writes it
    outputs.write_text(
        json.dumps({"Tatami": {"ApiUrl": f"{upstream.url}/v1/", "PlacesTableName": "Tatami-Places"}})
    )
    environment = {
        **os.environ,
        **CREDENTIALS,
        "AWS_SESSION_TOKEN": TOKEN,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_CONFIG_FILE": str(tmp_path / "none"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "none"),
    }
    port = engines.free_port()
    process = subprocess.Popen(
        [str(TATAMI), "console", "--outputs-file", str(outputs), "--port", str(port)],
        env=environment,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        banner = process.stdout.readline()
        assert f"http://127.0.0.1:{port}/console" in banner, banner
        yield f"http://127.0.0.1:{port}/console"
    finally:
        process.terminate()
        process.wait(timeout=10)


def verify_signature(request: dict[str, Any], upstream: Upstream) -> None:
    """Recompute the SigV4 signature of a recorded request from its signed headers; it must match."""
    authorization = request["headers"]["Authorization"]
    scheme, _, fields = authorization.partition(" ")
    parts = dict(part.strip().split("=", 1) for part in fields.split(","))
    assert scheme == "AWS4-HMAC-SHA256"
    assert parts["Credential"].endswith(f"/{REGION}/execute-api/aws4_request")
    assert parts["Credential"].startswith(CREDENTIALS["AWS_ACCESS_KEY_ID"] + "/")
    signed = parts["SignedHeaders"].split(";")
    assert {"host", "x-amz-date", "x-amz-security-token"} <= set(signed)
    headers = {name: value for name, value in request["headers"].items() if name.lower() in signed}
    again = AWSRequest(request["method"], f"{upstream.url}{request['path']}", headers, request["body"])
    again.context["timestamp"] = request["headers"]["X-Amz-Date"]
    signer = SigV4Auth(Credentials(*CREDENTIALS.values(), TOKEN), "execute-api", REGION)
    assert parts["Signature"] == signer.signature(
        signer.string_to_sign(again, signer.canonical_request(again)), again
    )


def test_the_page_is_served_and_api_calls_reach_the_stack_signed(
    deployed_console: str, upstream: Upstream
) -> None:
    page = requests.get(deployed_console, timeout=30)
    assert page.status_code == 200 and "tatami console" in page.text
    assert requests.get(f"{deployed_console}/api/overview", timeout=30).json()["mode"] == "deployed"
    assert upstream.received == []  # the console's own files and data never go to the API
    root = deployed_console.removesuffix("/console")
    found = requests.get(f"{root}/places/search", params={"latitude_min": 35, "explain": "true"}, timeout=30)
    assert found.json() == ANSWER
    written = requests.put(f"{root}/places/kyoto", json={"name": "Kyoto"}, timeout=30)
    assert written.status_code == 200
    (search, put) = upstream.received
    assert search["path"] == "/v1/places/search?latitude_min=35&explain=true"
    assert (put["path"], put["body"]) == ("/v1/places/kyoto", b'{"name": "Kyoto"}')
    for request in (search, put):
        assert request["headers"]["X-Amz-Security-Token"] == TOKEN
        verify_signature(request, upstream)


def test_a_search_from_the_page_reaches_the_stack_signed(
    deployed_console: str, upstream: Upstream, watched: Watched
) -> None:
    page = watched.page
    page.goto(f"{deployed_console}#places")
    page.wait_for_selector('#view[data-view="places"][data-ready="true"]')
    page.fill('input[name="latitude_min"]', "30")
    page.fill('input[name="latitude_max"]', "40")
    page.click('[data-testid="search"]')
    page.wait_for_selector('[data-testid="results"] tbody tr')
    assert page.locator('[data-testid="results"] tbody td').first.inner_text() == "tokyo"
    (search,) = upstream.received
    assert search["path"].startswith("/v1/places/search?latitude_min=30&latitude_max=40&explain=true")
    verify_signature(search, upstream)
