"""moto server as the local cloud runs it: held to the loopback rules and, with a state file, keeping
its objects, messages and secrets there (`moto_state`).

Run as `python -m tatami.local.engines.moto_server [--state FILE] -H 127.0.0.1 -p PORT`. Listening on
127.0.0.1 keeps the network out, but not the web pages the developer opens. moto itself answers any
`Host` (a DNS-rebinding page would read every bucket) and allows every origin through CORS. Here a
request first meets `tatami.local.loopback.refusal`, as the gateway's and the control port's do
(the SDKs send `Host: 127.0.0.1:PORT` and no `Origin`, so they pass), and moto's global CORS is off
(`MOTO_DISABLE_GLOBAL_CORS`), so a page of another origin cannot read an answer either.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tatami.local.loopback import refusal

__all__ = ["OnLoopback", "main"]

WsgiApp = Callable[[dict[str, Any], Any], Iterable[bytes]]


class OnLoopback:
    """A WSGI app that answers 403 (naming the header and why) to what `refusal` refuses."""

    def __init__(self, app: WsgiApp, port: int) -> None:
        self.app, self.port = app, port

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        def header(name: str) -> str | None:
            return environ.get("HTTP_" + name.upper().replace("-", "_"))

        refused = refusal(environ.get("REQUEST_METHOD", "GET"), header, self.port)
        if refused is None:
            return self.app(environ, start_response)
        body = json.dumps({"message": f"refused: {refused[1]}", "header": refused[0]}).encode()
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        start_response("403 Forbidden", headers)
        return [body]


def main(argv: list[str] | None = None) -> None:
    """`moto.server`'s command line, after an optional `--state FILE`."""
    args = list(sys.argv[1:] if argv is None else argv)
    state_file = Path(args.pop(args.index("--state") + 1)) if "--state" in args else None
    if state_file is not None:
        args.remove("--state")
    port = int(args[args.index("-p") + 1])
    os.environ["MOTO_DISABLE_GLOBAL_CORS"] = "true"  # read when moto's settings are first imported
    import moto.server
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication

    from tatami.local.engines.moto_state import MotoState, WritingThrough

    state = None if state_file is None else MotoState(state_file)
    if state is not None:
        print(f"restored {state.restore()} from {state.path}", flush=True)

    class LocalApplication(DomainDispatcherApplication):
        def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
            served = super().__call__ if state is None else WritingThrough(super().__call__, state)
            return OnLoopback(served, port)(environ, start_response)

    moto.server.DomainDispatcherApplication = LocalApplication  # type: ignore[attr-defined]
    moto.server.main(args)


if __name__ == "__main__":
    main()
