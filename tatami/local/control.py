"""A loopback control endpoint of the running local cloud: `tatami local fire RULE` runs a scheduled
rule now; `tatami local status` reads each stream trigger's backlog (GET /streams), whether each
engine is up (GET /engines) and the alarms' states (GET /alarms, as `tatami local alarms` does);
`tatami local faults` arms a fault plan in every function (PUT /faults, a `FaultPlan`'s JSON) or
disarms it (DELETE /faults)."""

from __future__ import annotations

import json
import threading
from dataclasses import asdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from tatami.local.engines.faults import FaultPlan

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
    class Handler(_FaultRoutes, BaseHTTPRequestHandler):
        cloud_served = cloud

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

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: control calls are not API traffic."""

    return Handler


class _FaultRoutes(BaseHTTPRequestHandler):
    """PUT /faults arms a plan (a `FaultPlan`'s JSON) in every function; DELETE /faults disarms it.
    `_reply` answers in JSON, for every route."""

    cloud_served: LocalCloud

    def do_PUT(self) -> None:
        text = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode(errors="replace")
        self._reply(*_faults(self.cloud_served, self.path, text))

    def do_DELETE(self) -> None:
        self._reply(*_faults(self.cloud_served, self.path, None))

    def _reply(self, status: int, body: Any) -> None:
        payload = json.dumps(body, default=str).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


def _faults(cloud: LocalCloud, path: str, text: str | None) -> tuple[int, Any]:
    """PUT /faults arms the plan `text` (a `FaultPlan`'s JSON) in every function; DELETE disarms it."""
    if path.rstrip("/") != "/faults":
        return 404, {"message": f"no control route {path}"}
    try:
        plan = None if text is None else FaultPlan.from_json(text)
        cloud.inject_faults(plan)
    except (ValueError, TypeError, KeyError) as exc:
        return 400, {"message": f"not a fault plan: {exc}"}
    return 200, {"armed": None if plan is None else json.loads(plan.to_json())}
