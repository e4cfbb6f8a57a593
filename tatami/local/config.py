"""What a local cloud is started with (`LocalCloudConfig`), and free ports for one beside others."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from tatami.local.engines import processes as engines
from tatami.local.engines.faults import FaultPlan
from tatami.local.iam.guard import ENFORCE
from tatami.local.state import default_work_dir


@dataclass
class LocalCloudConfig:
    cdk_out: Path
    api_port: int = 3000
    dynamodb_port: int = 8000
    moto_port: int = 5005
    work_dir: Path = dataclasses.field(default_factory=default_work_dir)
    db_path: Path | None = None  # None: DynamoDB Local and moto keep everything in memory
    stage: str = "v1"
    warm_functions: bool = True
    max_workers_per_function: int = 8
    poll_interval: float = 0.1
    echo_logs: bool = True
    iam_mode: str = ENFORCE  # enforce | soft (log what AWS would refuse) | off
    # Injected faults (tatami/local/engines/faults.py) for the workers of each function whose logical id
    # starts with a key: the reliability tests' throttling, transient errors and crashes.
    faults: dict[str, FaultPlan] = dataclasses.field(default_factory=dict)
    # A switch file every other function watches: `inject_faults` (`tatami local faults`) arms a plan there.
    fault_switch: Path | None = None
    alarm_interval: float = 10.0  # seconds between evaluations of the template's alarms (0: on demand)


def free_ports() -> dict[str, int]:
    """A LocalCloudConfig's three ports, each free now: a cloud beside others (tests, benches)."""
    return {name: engines.free_port() for name in ("api_port", "dynamodb_port", "moto_port")}
