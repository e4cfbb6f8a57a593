"""How long `make run` takes to start: the banner, then every sample loaded, per IAM mode.

Starts `tatami local` (as `make run` does: synthesis included) on free ports in a scratch work
folder, reads its log until every sample has reported, stops it with SIGINT, and repeats for each
mode asked for. Modes other than `default` pass `--iam MODE`; `default` passes nothing (so the same
program measures a checkout that has no `--iam` option).

    .venv/bin/python bench/local_startup.py [--modes off,enforce] [--runs 2]

Prints, per run and mode, seconds to the banner and seconds until the last sample finished, the
medians side by side with their ratio to the first mode, and writes bench/results/local_startup.json.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _results import write_results

from tatami.samples.catalog import SAMPLES

REPO = Path(os.environ.get("TATAMI_REPO") or Path(__file__).resolve().parents[1])
RESULTS = REPO / "bench" / "results" / "local_startup.json"
SAMPLE_DONE = re.compile(r"\bsamples \| (.+?): (.*)$")
TIMEOUT_SECONDS = 2400


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_once(mode: str, samples: int) -> dict[str, float | int]:
    """Seconds to the banner and to the last sample, CPU seconds of the whole run (the local cloud,
    its workers and engines, until it has stopped: less sensitive to other load than the wall
    clock), and how many samples failed."""
    cpu_before = _children_cpu()
    command = [str(REPO / ".venv" / "bin" / "tatami"), "local", "--port", str(free_port())]
    command += ["--dynamodb-port", str(free_port()), "--moto-port", str(free_port())]
    command += [] if mode == "default" else ["--iam", mode]
    started = time.monotonic()
    process = subprocess.Popen(
        command,
        cwd=REPO,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        banner, failed = _read_until_loaded(process, started, samples)
        samples_s = time.monotonic() - started
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
    return {
        "banner_s": banner,
        "samples_s": samples_s,
        "cpu_s": _children_cpu() - cpu_before,
        "failed": failed,
    }


def _read_until_loaded(process: subprocess.Popen[str], started: float, samples: int) -> tuple[float, int]:
    banner, finished, failed = 0.0, 0, 0
    assert process.stdout is not None
    for line in process.stdout:
        if time.monotonic() - started > TIMEOUT_SECONDS:
            raise TimeoutError(f"no end of samples after {TIMEOUT_SECONDS} s")
        if "local cloud is up in" in line:
            banner = time.monotonic() - started
        match = SAMPLE_DONE.search(line)
        if match and (match.group(2).startswith("FAILED") or re.search(r"\(\d+\.\d s\)$", line.strip())):
            finished += 1
            failed += match.group(2).startswith("FAILED")
            print(f"  {time.monotonic() - started:6.1f} s {line.strip()}", file=sys.stderr, flush=True)
        if finished == samples:
            break
    return banner, failed


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="off,enforce", help="comma-separated: default, off, soft, enforce")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument(
        "--samples",
        type=int,
        default=len(SAMPLES),
        help="how many samples `make run` loads: one per service (another checkout's count may differ)",
    )
    args = parser.parse_args()
    modes = args.modes.split(",")
    runs: dict[str, list[dict[str, float | int]]] = {mode: [] for mode in modes}
    for run in range(args.runs):
        for mode in modes:  # interleaved, so a change in the machine's load hits every mode alike
            result = start_once(mode, args.samples)
            runs[mode].append(result)
            print(
                f"run {run + 1} {mode:>8}: banner {result['banner_s']:6.1f} s, "
                f"samples loaded {result['samples_s']:6.1f} s, CPU {result['cpu_s']:6.1f} s, "
                f"failed samples {result['failed']}"
            )
    first = modes[0]
    medians = {
        mode: {
            key: statistics.median(float(r[key]) for r in results)
            for key in ("banner_s", "samples_s", "cpu_s")
        }
        for mode, results in runs.items()
    }
    print(f"\n{'mode':>8} {'banner (s)':>11} {'samples (s)':>12} {'CPU (s)':>8} {'CPU / ' + first:>14}")
    for mode, median in medians.items():
        ratio = median["cpu_s"] / medians[first]["cpu_s"]
        figures = f"{median['banner_s']:11.1f} {median['samples_s']:12.1f} {median['cpu_s']:8.1f}"
        print(f"{mode:>8} {figures} {ratio:14.2f}")
    write_results(RESULTS, {"runs": runs, "medians": medians})


if __name__ == "__main__":
    main()
