"""One cold start: enter the sandbox as a local cloud worker does, import the handler (init), then serve
one request (the first request), timing each in CPU and wall seconds; prints them as one JSON line.

    python -I -B probe.py EVENT_FILE [--export-api]

Run by bench/cold_start.py in a fresh interpreter per cold start, with the function's environment.
Standard library and `tatami.local` only before the handler, as in `tatami.local.functions.worker`,
whose context object it hands the handler. It sets the X-Ray trace header Lambda sets for each
invocation (`_X_AMZN_TRACE_ID`: the tracer records subsegments only inside one).

`--export-api` installs the local stand-in for DynamoDB's export API (`tatami.local.engines.exports`),
which answers the export function's calls in this process: its answers (an export's scan and records,
work DynamoDB does in AWS) are timed and taken out of the first request, reported as "emulated"; its
installation stays in (it loads botocore, which the function's first client loads anyway, and its own
module), so the figure overstates rather than hides.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from tatami.local.functions.sandbox.enter import enter
from tatami.local.functions.worker import LambdaContext

TRACE_HEADER = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"


def outcome(result: Any) -> str:
    """What the request came to, for the bench to check: an HTTP status, or a stream batch's failures."""
    if isinstance(result, dict) and "statusCode" in result:
        return str(result["statusCode"])
    if isinstance(result, dict) and "batchItemFailures" in result:
        return f"{len(result['batchItemFailures'])} failed"
    return "done"


def timed_export_api(emulated: list[float]) -> Any:
    """The stand-in's installer, its answers adding their CPU and wall seconds to `emulated`."""
    from tatami.local.engines import exports  # before the sandbox closes

    answer = exports.Exports.answer

    def timed(self: Any, *args: Any, **kwargs: Any) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return answer(self, *args, **kwargs)
        finally:
            emulated[0] += time.process_time() - cpu
            emulated[1] += time.perf_counter() - wall

    exports.Exports.answer = timed  # type: ignore[method-assign]
    return exports.install


def main() -> None:
    event = json.loads(Path(sys.argv[1]).read_text())
    emulated = [0.0, 0.0]
    install_export_api = timed_export_api(emulated) if "--export-api" in sys.argv else None
    enter()
    module, _, name = os.environ["_HANDLER"].rpartition(".")
    wall, cpu = time.perf_counter(), time.process_time()
    handler = getattr(importlib.import_module(module), name)
    init = (time.process_time() - cpu, time.perf_counter() - wall)
    os.environ["_X_AMZN_TRACE_ID"] = TRACE_HEADER
    wall, cpu = time.perf_counter(), time.process_time()
    if install_export_api is not None:
        install_export_api()
    result = handler(event, LambdaContext("cold-start-1", int((time.time() + 10) * 1000)))
    first = (time.process_time() - cpu - emulated[0], time.perf_counter() - wall - emulated[1])
    print(json.dumps({"init": init, "first": first, "emulated": emulated, "outcome": outcome(result)}))


if __name__ == "__main__":
    main()
