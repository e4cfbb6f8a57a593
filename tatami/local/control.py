"""A loopback control endpoint of the running local cloud: `tatami local fire RULE` runs a scheduled
rule now; `tatami local status` reads each stream trigger's backlog (GET /streams), whether each
engine is up (GET /engines) and the alarms' states (GET /alarms, as `tatami local alarms` does);
`tatami local faults` arms a fault plan in every function (PUT /faults, a `FaultPlan`'s JSON) or
disarms it (DELETE /faults). Like the API, it answers only its own loopback Host names and no write
from a web page (`tatami.local.loopback`)."""

from __future__ import annotations

import json
import threading
from dataclasses import asdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from tatami.local.engines.faults import FaultPlan
from tatami.local.gateway.proxy import Reply, field_error
from tatami.local.loopback import refusal

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
    return type("Handler", (_Control,), {"cloud": cloud})


class _Control(BaseHTTPRequestHandler):
    """One control call (`cloud` is set per server)."""

    cloud: LocalCloud

    def parse_request(self) -> bool:
        """Every call, whatever its method, is first held to the loopback rules: a foreign Host or a
        write from a web page is answered 403 and goes no further."""
        if not super().parse_request():
            return False
        refused = refusal(self.command, self.headers.get, int(self.connection.getsockname()[1]))
        if refused is not None:
            header, reason = refused
            self._send(field_error(403, header, "header", reason))
            return False
        return True

    def do_POST(self) -> None:
        parts = [unquote(p) for p in self.path.strip("/").split("/")]
        if len(parts) == 3 and parts[0] == "rules" and parts[2] == "fire":
            try:
                invocations = self.cloud.fire_rule(parts[1])
            except KeyError as exc:
                self._reply(404, {"message": str(exc.args[0])})
                return
            self._reply(200, {"invocations": [asdict(i) for i in invocations]})
            return
        self._reply(404, {"message": f"no control route {self.path}"})

    def do_PUT(self) -> None:
        text = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode(errors="replace")
        self._reply(*_faults(self.cloud, self.path, text))

    def do_DELETE(self) -> None:
        self._reply(*_faults(self.cloud, self.path, None))

    def do_GET(self) -> None:
        cloud = self.cloud
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
        self._send(Reply(status, json.dumps(body, default=str).encode()))

    def _send(self, reply: Reply) -> None:
        self.send_response(reply.status)
        for name, value in reply.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        self.wfile.write(reply.body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: control calls are not API traffic."""


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
