"""Cold starts as a user feels them: every function's init plus its first request, beside a minimal
handler's (boto3, a Powertools Logger, one client, one GetItem), measured in one run.

Each cold start is a fresh `python -I -B` that enters the sandbox as a local cloud worker does (only
the function's asset, its layers and the runtime's boto3 on the import path; the template's
environment, tracing on as in AWS), imports the handler (init) and serves one request against
DynamoDB Local and moto (the first request: its clients created, its call made; `_cold_start/
requests.py` says which request for each function). Interpreter start is not counted: it is the same
for every function.

    .venv/bin/python bench/cold_start.py [--rounds 7] [--cdk-out DIR]

Figures are CPU time (steady while other work shares the machine's two cores; in Lambda, at 512 MB
a function gets about 0.3 vCPU, so CPU is what a cold start waits on) and wall time beside it. A
round runs every function and the minimal handler once, in a shuffled order; the ratio of a round
is a function's init plus first request over the minimal handler's in the same round. Prints the
median per function, the ratio of the medians and the spread of the rounds' ratios, and writes
bench/results/cold_start.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _cold_start.requests import (
    API_FLOOR,
    API_FLOOR_HANDLER,
    API_FLOOR_REQUEST,
    MINIMAL,
    MINIMAL_EVENT,
    MINIMAL_HANDLER,
    MINIMAL_TABLE,
    first_requests,
)
from _cold_start.world import World, running
from _results import write_results

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results" / "cold_start.json"
PROBE = REPO / "bench" / "_cold_start" / "probe.py"
BUDGET = 1.3  # issue 37: every function's init plus first request within 1.3x the minimal handler's
Target = tuple[dict[str, str], Path, bool]  # environment, event file, whether to answer the export API


def synthesize(cdk_out: Path) -> None:
    subprocess.run([sys.executable, str(REPO / "app.py")], cwd=REPO, check=True, capture_output=True,
                   env={**os.environ, "CDK_OUTDIR": str(cdk_out)})  # fmt: skip


def prepare(world: World, work: Path) -> dict[str, Target]:
    """Per function and reference handler: its worker environment and its first request."""
    events = first_requests(world)
    targets: dict[str, Target] = {}
    for logical_id, spec in sorted(world.assembly.functions.items()):
        exports = world.sandbox.may_call(logical_id, "dynamodb:ExportTableToPointInTime")
        targets[logical_id] = (
            world.environment(spec),
            _written(work, logical_id, events[logical_id]),
            exports,
        )
    (floor_event,) = [event for name, event in events.items() if name.startswith(API_FLOOR_REQUEST)]
    for name, code, event in (
        (MINIMAL, MINIMAL_HANDLER, MINIMAL_EVENT),
        (API_FLOOR, API_FLOOR_HANDLER, floor_event),
    ):
        targets[name] = _reference(world, work, name, code, event)
    return targets


def _reference(world: World, work: Path, name: str, code: str, event: dict[str, Any]) -> Target:
    """A reference handler beside the functions: its code as `reference.py`, the Powertools layer."""
    folder = work / "references" / name
    folder.mkdir(parents=True)
    (folder / "reference.py").write_text(code)
    any_spec = next(iter(world.assembly.functions.values()))
    spec = world.made_like(any_spec, name, folder, "reference.handler")
    table = str(world.resolver.resolve({"Ref": _table_id(world, MINIMAL_TABLE)}))
    env = world.environment(spec, {"TABLE_NAME": table, "POWERTOOLS_SERVICE_NAME": name})
    return env, _written(work, name, event), False


def _table_id(world: World, prefix: str) -> str:
    (found,) = [table.logical_id for table in world.assembly.tables if table.logical_id.startswith(prefix)]
    return found


def _written(work: Path, name: str, event: dict[str, Any]) -> Path:
    path = work / "events" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(event))
    return path


def cold_start(target: Target) -> dict[str, Any]:
    """One cold start: init and first request, each (CPU s, wall s), and what the request came to."""
    env, event_file, exports = target
    command = [
        sys.executable,
        "-I",
        "-B",
        str(PROBE),
        str(event_file),
        *(["--export-api"] if exports else []),
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{env['AWS_LAMBDA_FUNCTION_NAME']} failed:\n{done.stderr[-3000:]}")
    measured: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    outcome = str(measured["outcome"])  # an HTTP status, "<n> failed" (a stream batch) or "done"
    if outcome.startswith("5") or (outcome.endswith(" failed") and not outcome.startswith("0 ")):
        raise RuntimeError(f"{env['AWS_LAMBDA_FUNCTION_NAME']}'s first request: {outcome}\n{done.stdout}")
    return measured


def measure(targets: dict[str, Target], rounds: int) -> dict[str, list[dict[str, Any]]]:
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in targets}
    for _ in range(rounds):
        order = list(targets)
        random.shuffle(order)
        for name in order:
            runs[name].append(cold_start(targets[name]))
    return runs


def _ms(runs: list[dict[str, Any]], part: str, clock: int) -> float:
    """The median over rounds of `part` ("init", "first" or "cold": both) on `clock` (0 CPU, 1 wall), ms."""
    return statistics.median(_cold(run, part, clock) for run in runs) * 1000


def _cold(run: dict[str, Any], part: str, clock: int) -> float:
    return float(run["init"][clock] + run["first"][clock] if part == "cold" else run[part][clock])


def report(runs: dict[str, list[dict[str, Any]]], api: set[str]) -> dict[str, dict[str, Any]]:
    """The table: per function its init, first request and their sum (CPU ms, medians), the sum as a
    ratio to the minimal handler's, the spread of that ratio over the rounds, the wall sum, and for
    the API functions (`api`) the sum as a ratio to the Powertools API floor's."""
    minimal = runs[MINIMAL]
    rows: dict[str, dict[str, Any]] = {}
    for name, own in runs.items():
        ratios = [
            _cold(run, "cold", 0) / _cold(base, "cold", 0) for run, base in zip(own, minimal, strict=True)
        ]
        rows[name] = {
            "init_cpu_ms": _ms(own, "init", 0),
            "first_cpu_ms": _ms(own, "first", 0),
            "cold_cpu_ms": _ms(own, "cold", 0),
            "ratio": _ms(own, "cold", 0) / _ms(minimal, "cold", 0),
            "ratio_spread": (min(ratios), max(ratios)),
            "cold_wall_ms": _ms(own, "cold", 1),
            "wall_ratio": _ms(own, "cold", 1) / _ms(minimal, "cold", 1),
            "outcome": own[-1]["outcome"],
        }
        if name in api or name == API_FLOOR:
            rows[name]["floor_ratio"] = _ms(own, "cold", 0) / _ms(runs[API_FLOOR], "cold", 0)
    header = (f"{'function':<38} {'init':>5} {'first':>5} {'cold':>5} {'x minimal':>9} {'rounds':>11} "
              f"{'x floor':>7} {'wall':>5} {'x':>5}")  # fmt: skip
    print(f"{'CPU ms':>55}{'wall ms':>27}\n{header}")
    for name, row in sorted(rows.items(), key=lambda item: item[1]["ratio"]):
        low, high = row["ratio_spread"]
        mark = "" if row["ratio"] <= BUDGET else f"  over {BUDGET}x"
        floor = f"{row['floor_ratio']:>7.2f}" if "floor_ratio" in row else f"{'':>7}"
        print(f"{name:<38} {row['init_cpu_ms']:>5.0f} {row['first_cpu_ms']:>5.0f} {row['cold_cpu_ms']:>5.0f} "
              f"{row['ratio']:>9.2f} {low:>5.2f}-{high:<5.2f} {floor} {row['cold_wall_ms']:>5.0f} "
              f"{row['wall_ratio']:>5.2f} {row['outcome']:>8}{mark}")  # fmt: skip
    worst = max((row["ratio"], name) for name, row in rows.items() if name not in (MINIMAL, API_FLOOR))
    print(f"worst: {worst[1]} at {worst[0]:.2f}x the minimal handler's cold start (budget {BUDGET}x)")
    return rows


def run(cdk_out: Path, work: Path, rounds: int, only: list[str]) -> tuple[dict[str, list[Any]], set[str]]:
    """The rounds' cold starts of the references and the functions `only` names (all by default), and
    the names of the API functions among them."""
    with running(cdk_out, work) as world:
        print(f"DynamoDB Local and moto up, {len(world.assembly.tables)} tables", flush=True)
        targets = prepare(world, work)
        api = {name for name, (_env, event, _x) in targets.items() if '"httpMethod"' in event.read_text()}
        chosen = tuple(only) or ("",)
        targets = {n: t for n, t in targets.items() if n in (MINIMAL, API_FLOOR) or n.startswith(chosen)}
        for target in targets.values():  # compile what the assets do not ship, warm the file cache
            cold_start(target)
        return measure(targets, rounds), api


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--cdk-out", type=Path, help="a synthesized app (default: synthesize one)")
    parser.add_argument("--only", nargs="*", default=[], help="logical id prefixes of the functions to run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        cdk_out = args.cdk_out or Path(scratch) / "cdk.out"
        if args.cdk_out is None:
            synthesize(cdk_out)
        runs, api = run(cdk_out, Path(scratch) / "work", args.rounds, args.only)
    rows = report(runs, api)
    if not args.only:
        summary = {"rounds": args.rounds, "python": sys.version, "functions": rows}
        write_results(RESULTS, summary, indent=1)


if __name__ == "__main__":
    main()
