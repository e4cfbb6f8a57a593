"""A loopback control endpoint of the running local cloud: `tatami local fire RULE` runs a scheduled
rule now; `tatami local status` reads each stream trigger's backlog (GET /streams), whether each
engine is up (GET /engines) and the alarms' states (GET /alarms, as `tatami local alarms` does)."""

from __future__ import annotations

import json
import threading
from dataclasses import asdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud


class ControlServer:
    def __init__(self, cloud: LocalCloud) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(cloud))
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, name="control", daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _handler(cloud: LocalCloud) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            parts = [unquote(p) for p in self.path.strip("/").split("/")]
            if len(parts) == 3 and parts[0] == "rules" and parts[2] == "fire":
                try:
                    invocations = cloud.fire_rule(parts[1])
                except KeyError as exc:
                    self._reply(404, {"message": str(exc.args[0])})
                    return
                self._reply(200, {"invocations": [asdict(i) for i in invocations]})
                return
            self._reply(404, {"message": f"no control route {self.path}"})

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/streams":
                self._reply(200, cloud.stream_status())
                return
            if self.path.rstrip("/") == "/engines":
                self._reply(200, cloud.engine_status())
                return
            if self.path.rstrip("/") == "/alarms":
                self._reply(200, cloud.alarm_states())
                return
            rules = [{"logical_id": r.logical_id, "schedule": r.schedule} for r in cloud.assembly.rules]
            self._reply(
                200, {"rules": rules, "stream_stats": {k: asdict(v) for k, v in cloud.stream_stats.items()}}
            )

        def _reply(self, status: int, body: Any) -> None:
            payload = json.dumps(body, default=str).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: control calls are not API traffic."""

    return Handler
