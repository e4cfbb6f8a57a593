"""tatami/local/engines/commit_barrier.py: after a transaction DynamoDB Local accepted, one ListTables
goes to it (queued behind the COMMIT, so its answer means the COMMIT ran); after a refused one,
nothing. The durability it buys is measured by bench/dynamodb_kill_durability.py."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from types import SimpleNamespace
from typing import ClassVar

import pytest
from botocore.exceptions import EndpointConnectionError

from tatami.local.engines import commit_barrier


class _Recording(BaseHTTPRequestHandler):
    seen: ClassVar[list[str]] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        _Recording.seen.append(self.headers["X-Amz-Target"])
        body = b'{"TableNames": []}'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def endpoint() -> Iterator[str]:
    _Recording.seen = []
    server = HTTPServer(("127.0.0.1", 0), _Recording)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_an_accepted_transaction_waits_for_its_commit(endpoint: str) -> None:
    commit_barrier._after_transaction(endpoint, http_response=SimpleNamespace(status_code=200))
    assert _Recording.seen == ["DynamoDB_20120810.ListTables"]


def test_a_refused_transaction_waits_for_nothing(endpoint: str) -> None:
    commit_barrier._after_transaction(endpoint, http_response=SimpleNamespace(status_code=400))
    assert _Recording.seen == []


def test_an_engine_gone_before_confirming_is_a_lost_answer_not_a_success() -> None:
    with pytest.raises(EndpointConnectionError):
        commit_barrier._after_transaction(
            "http://127.0.0.1:9", http_response=SimpleNamespace(status_code=200)
        )
