"""`tatami local status`: a short summary a person reads, and `--json` for scripts.

A running cloud is stood in for by its state file and a control endpoint answering as
`tatami.local.control` does (loopback, no engines), with a cloud's worth of outputs, stream triggers
and alarms: the summary stays a dozen lines however many there are.
"""

from __future__ import annotations

import importlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tatami.local.state import RunningState

local_command = importlib.import_module("tatami.commands.local")

ENGINES = {
    "DynamoDB Local": {"endpoint": "http://127.0.0.1:8000", "running": True, "restarts": 2},
    "moto server": {"endpoint": "http://127.0.0.1:5005", "running": False, "restarts": 0},
}
STREAMS = {
    f"Trigger{n}": {"function": f"Consumer{n}", "backlog_records": 1200 if n == 3 else 0, "invocations": 1,
                    "records_delivered": 10, "records_filtered": 0, "records_discarded": 0}
    for n in range(14)
}  # fmt: skip
ALARMS = [
    {"name": f"Tatami-Alarm{n}", "state": "ALARM" if n < 2 else "OK" if n < 150 else "INSUFFICIENT_DATA"}
    for n in range(161)
]
OUTPUTS = {f"Table{n}Name": f"Tatami-Table{n}" for n in range(40)}


@pytest.fixture
def running(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    answers = {"/engines": ENGINES, "/streams": STREAMS, "/alarms": ALARMS}

    class Control(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            payload = json.dumps(answers[self.path]).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *_args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Control)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    monkeypatch.setenv("TATAMI_LOCAL_DIR", str(tmp_path))
    state = RunningState(tmp_path)
    state.publish(
        {
            "api_url": "http://127.0.0.1:3000",
            "console_url": "http://127.0.0.1:3000/console",
            "control_url": f"http://127.0.0.1:{server.server_address[1]}",
            "outputs": OUTPUTS,
            "dynamodb_endpoint": "http://127.0.0.1:8000",
            "moto_endpoint": "http://127.0.0.1:5005",
        }
    )
    try:
        yield
    finally:
        state.release()
        server.shutdown()
        server.server_close()


def test_status_is_a_short_summary_of_what_a_person_acts_on(running: None) -> None:
    result = CliRunner().invoke(local_command.local, ["status"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) <= 12, result.output
    assert lines[0].startswith("local cloud running (pid ")
    assert "http://127.0.0.1:3000   (OpenAPI: http://127.0.0.1:3000/openapi.json)" in lines[1]
    assert "http://127.0.0.1:3000/console" in result.output
    assert "DynamoDB Local  http://127.0.0.1:8000   up, restarted 2 times" in result.output
    assert "moto server     http://127.0.0.1:5005   DOWN" in result.output
    assert "stream triggers 14: 140 records delivered, 1 waiting" in result.output
    assert "Trigger3 -> Consumer3: 1,200 records" in result.output
    assert "alarms          161: 2 ALARM, 11 INSUFFICIENT_DATA, 148 OK; 2 in ALARM" in result.output
    assert [line.split()[-1] for line in lines if "ALARM: " in line] == ["Tatami-Alarm0", "Tatami-Alarm1"]
    assert "stack outputs   40 (`tatami local status --json` lists them)" in result.output
    assert "Tatami-Table7" not in result.output  # outputs are counted, not listed


def test_status_json_is_the_whole_report_for_scripts(running: None) -> None:
    result = CliRunner().invoke(local_command.local, ["status", "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found["outputs"] == OUTPUTS and found["engines"] == ENGINES and found["streams"] == STREAMS
    assert found["alarms"] == {
        "ALARM": 2,
        "INSUFFICIENT_DATA": 11,
        "OK": 148,
        "in ALARM": ["Tatami-Alarm0", "Tatami-Alarm1"],
    }


def test_status_says_which_part_the_cloud_did_not_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TATAMI_LOCAL_DIR", str(tmp_path))
    state = RunningState(tmp_path)
    state.publish({"api_url": "http://127.0.0.1:3000", "control_url": "http://127.0.0.1:9", "outputs": {}})
    try:
        result = CliRunner().invoke(local_command.local, ["status"])
    finally:
        state.release()
    assert result.exit_code == 0, result.output
    unknown = [line for line in result.output.splitlines() if "did not answer" in line]
    assert [line.split()[0] for line in unknown] == ["engines", "stream", "alarms"]
