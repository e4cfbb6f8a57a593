"""Cold starts: every function's init beside a minimal handler's, measured in one run.

The init measured is the import of the function's handler module with only its asset, its layers
and the runtime's boto3 on the import path, exactly as the local cloud's sandbox runs a worker
(`tatami/local/functions/sandbox/enter.py`), in a fresh `python -I -B` each time: Lambda's /var/task is
read-only, so the asset's modules compile at every cold start there too (the layer's bytecode and
the runtime's are shipped compiled, as the venv's are here). The environment is the function's own
from the template, with tracing on as in AWS. Interpreter start is not counted: it is the same for
every function. The minimal handler imports boto3 and makes a Powertools Logger, nothing else.

    .venv/bin/python bench/cold_start.py [--rounds 9] [--cdk-out DIR]

Each round imports every handler once, in a shuffled order, so load on the machine spreads over
all of them. Prints the median init per function and its ratio to the minimal handler's median,
and writes bench/results/cold_start.json.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "lambdas")]

from tatami.local.functions.environment import function_environment  # noqa: E402
from tatami.local.functions.sandbox.runtime import Runtime  # noqa: E402
from tatami.local.template.assembly import FunctionSpec, load_assembly  # noqa: E402
from tatami.local.template.intrinsics import Resolver, UnresolvableError  # noqa: E402

RESULTS = REPO / "bench" / "results" / "cold_start.json"
BUDGET = 1.5  # issue 27: every function within 1.5x the minimal handler
MINIMAL = "minimal"
MINIMAL_HANDLER = "import boto3\nfrom aws_lambda_powertools import Logger\n\nlogger = Logger()\n"
# The child: enter the sandbox as a worker does, then time the handler's import alone: CPU seconds
# (what 0.29 vCPU stretches; steady while other work shares this machine) and wall seconds.
PROBE = """
import importlib, sys, time
from tatami.local.functions.sandbox.enter import enter
enter()
wall, cpu = time.perf_counter(), time.process_time()
importlib.import_module(sys.argv[1])
print(time.process_time() - cpu, time.perf_counter() - wall)
"""
LOCAL_ONLY = ("POWERTOOLS_TRACE_DISABLED",)  # what the local cloud adds beyond AWS


def synthesize(cdk_out: Path) -> None:
    subprocess.run([sys.executable, str(REPO / "app.py")], cwd=REPO, check=True, capture_output=True,
                   env={**os.environ, "CDK_OUTDIR": str(cdk_out)})  # fmt: skip


def declared(spec: FunctionSpec, resolver: Resolver) -> dict[str, str]:
    """The template's variables, resolved where the local resolver can (imports read none of them
    anyway: clients and settings are made on first use)."""
    values = {}
    for name, value in spec.environment.items():
        try:
            values[name] = str(resolver.resolve(value))
        except UnresolvableError:
            values[name] = f"unresolved-{name.lower()}"
    return values


def prepare(cdk_out: Path, work: Path) -> dict[str, tuple[str, dict[str, str]]]:
    """Per function (and the minimal handler): its handler module and the worker's environment."""
    assembly = load_assembly(cdk_out)
    functions = dict(sorted(assembly.functions.items()))
    runtime = Runtime.build(work, (layer for spec in functions.values() for layer in spec.layer_dirs))
    resolver = Resolver(stack_name=assembly.stacks[0].name)
    minimal_dir = work / "minimal"
    minimal_dir.mkdir()
    (minimal_dir / "minimal.py").write_text(MINIMAL_HANDLER)
    any_spec = next(iter(functions.values()))
    minimal = dataclasses.replace(
        any_spec,
        handler="minimal.handler",
        code_dir=minimal_dir,
        layer_dirs=tuple(runtime.wheel_layers),  # the Powertools layer, not zorder
        environment={},
    )
    specs = {MINIMAL: minimal, **functions}
    prepared = {}
    for name, spec in specs.items():
        runtime_file = work / f"{name}.json"
        sys_path = runtime.import_path(spec.code_dir, spec.layer_dirs, spec.external_layers)
        runtime_file.write_text(json.dumps({"sys_path": sys_path, "iam": {}}))
        env = function_environment(spec, declared(spec, resolver), runtime_file, "http://127.0.0.1:1", "")
        for variable in LOCAL_ONLY:
            env.pop(variable, None)
        prepared[name] = (spec.handler.rpartition(".")[0], env)
    return prepared


def import_seconds(module: str, env: dict[str, str]) -> tuple[float, float]:
    """CPU and wall seconds of importing `module` in a fresh worker-like process."""
    command = [sys.executable, "-I", "-B", "-c", PROBE, module]
    done = subprocess.run(command, env={**env, "PYTHONPATH": str(REPO)}, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"importing {module} failed:\n{done.stderr}")
    cpu, wall = done.stdout.strip().splitlines()[-1].split()
    return float(cpu), float(wall)


def measure(
    prepared: dict[str, tuple[str, dict[str, str]]], rounds: int
) -> dict[str, list[tuple[float, float]]]:
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in prepared}
    for _ in range(rounds):
        order = list(prepared)
        random.shuffle(order)
        for name in order:
            times[name].append(import_seconds(*prepared[name]))
    return times


def report(times: dict[str, list[tuple[float, float]]]) -> dict[str, dict[str, float]]:
    """The table: median CPU and wall ms per function, each as a ratio to the minimal handler's."""
    cpu = {name: statistics.median(t[0] for t in runs) * 1000 for name, runs in times.items()}
    wall = {name: statistics.median(t[1] for t in runs) * 1000 for name, runs in times.items()}
    rows = {
        name: {"cpu_ms": cpu[name], "ratio": cpu[name] / cpu[MINIMAL],
               "wall_ms": wall[name], "wall_ratio": wall[name] / wall[MINIMAL]}
        for name in times
    }  # fmt: skip
    print(f"{'function':<40} {'CPU ms':>7} {'x minimal':>9} {'wall ms':>8} {'x minimal':>9}")
    for name, row in sorted(rows.items(), key=lambda item: item[1]["ratio"]):
        mark = "" if row["ratio"] <= BUDGET else f"  over {BUDGET}x"
        print(f"{name:<40} {row['cpu_ms']:>7.0f} {row['ratio']:>9.2f} {row['wall_ms']:>8.0f} "
              f"{row['wall_ratio']:>9.2f}{mark}")  # fmt: skip
    worst = max(row["ratio"] for name, row in rows.items() if name != MINIMAL)
    print(f"worst function: {worst:.2f}x the minimal handler's CPU time (budget {BUDGET}x)")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--cdk-out", type=Path, help="a synthesized app (default: synthesize one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        cdk_out = args.cdk_out or Path(scratch) / "cdk.out"
        if args.cdk_out is None:
            synthesize(cdk_out)
        prepared = prepare(cdk_out, Path(scratch) / "work")
        for module, env in prepared.values():  # warm the OS's file cache; not counted
            import_seconds(module, env)
        times = measure(prepared, args.rounds)
    rows = report(times)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(
        json.dumps({"rounds": args.rounds, "python": sys.version, "functions": rows}, indent=1)
    )


if __name__ == "__main__":
    main()
