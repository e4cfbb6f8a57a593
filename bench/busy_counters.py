"""Counters on a busy machine (127.0.0.1 only): the issue's 2,000 unkeyed increments beside one spinning
process per core, without and with lost responses, and what the counter holds.

Starts the app on a local cloud of its own, creates a counter per run, sends the increments from
several threads while burners saturate every core (tests/support/busy.py), then reads the counter.
Before the API functions' writes were guarded (common/writes.py), a timed-out `ADD` was resent and
counted twice (2,000 -> 2,057). Prints, per run, the answers, the counter, and the double counts: the
counter minus every increment that may have applied (0 is exact; more is a double count).

    .venv/bin/python bench/busy_counters.py [--increments 2000] [--threads 8]

Writes bench/results/busy_counters.json; exits 1 if any increment counted twice.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import requests
from _results import write_results

from tatami.local.cloud import LocalCloud, LocalCloudConfig, free_ports
from tatami.local.engines.faults import LOST_RESPONSE, FaultPlan
from tests.support.busy import busy
from tests.support.lost_responses import Answer

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results" / "busy_counters.json"
# The second run loses the first answer of a third of the shards' UpdateItems: applied, then a timeout.
LOSSY = FaultPlan(
    rate=0.33, errors=(LOST_RESPONSE,), operations=("dynamodb.UpdateItem",), attempts=(1,), seed=7
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--increments", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        env = {**os.environ, "CDK_OUTDIR": str(root / "cdk.out")}
        subprocess.run([sys.executable, "app.py"], cwd=REPO, check=True, capture_output=True, env=env)
        config = LocalCloudConfig(
            cdk_out=root / "cdk.out",
            **free_ports(),
            work_dir=root / "work",
            echo_logs=False,
            warm_functions=False,  # only the counters' writer serves here: warmed below
            fault_switch=root / "faults.json",
        )
        with LocalCloud(config) as cloud:
            cloud.pools[_writer(cloud)].warm(args.threads)
            runs = {
                "busy": _run(cloud, "busy", args, None),
                "busy, lost responses": _run(cloud, "lossy", args, LOSSY),
            }
    write_results(RESULTS, runs)
    for name, run in runs.items():
        print(
            f"{name:<22} {run['increments']} increments in {run['seconds']:.0f} s "
            f"beside {run['burners']} burners: answers {run['answers']}, counter {run['counter']}, "
            f"double counts {run['double_counts']}"
        )
    return 0 if all(run["double_counts"] <= 0 for run in runs.values()) else 1


def _writer(cloud: LocalCloud) -> str:
    return next(function_id for function_id in cloud.pools if function_id.startswith("CountersWrite"))


def _run(cloud: LocalCloud, name: str, args: argparse.Namespace, plan: FaultPlan | None) -> dict[str, Any]:
    api, counter = cloud.api_url, f"busy-{name}-{int(time.time())}"
    requests.put(f"{api}/counters/{counter}", json={"target_wcu": 1000}, timeout=60).raise_for_status()

    def increment(_: int) -> Answer:
        return Answer.of(requests.post(f"{api}/counters/{counter}/increments", json={"by": 1}, timeout=60))

    cloud.inject_faults(plan)
    started = time.monotonic()
    try:
        with busy(3600) as burners, ThreadPoolExecutor(args.threads) as pool:
            answers = list(pool.map(increment, range(args.increments)))
    finally:
        cloud.inject_faults(None)
    seconds = time.monotonic() - started
    value = requests.get(f"{api}/counters/{counter}", params={"consistent": "true"}, timeout=60).json()[
        "value"
    ]
    may_have_applied = sum(answer.may_have_applied for answer in answers)
    return {
        "increments": args.increments,
        "seconds": seconds,
        "burners": burners,
        "answers": dict(Counter(str(answer.status) for answer in answers)),
        "counter": value,
        "may_have_applied": may_have_applied,
        "double_counts": value - may_have_applied,
    }


if __name__ == "__main__":
    sys.exit(main())
