"""Make a running local cloud's dependencies fail, and stop: a switched fault plan armed and disarmed
(`tatami.local.engines.faults`), and an engine frozen (SIGSTOP) and thawed."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tatami.local.cloud import LocalCloud
from tatami.local.engines.faults import THROTTLING, UNREACHABLE, FaultPlan
from tatami.local.engines.processes import DYNAMODB_LOCAL

THROTTLED = FaultPlan(rate=1.0, errors=THROTTLING, operations=("dynamodb",))
UNREACHABLE_ENDPOINT = FaultPlan(rate=1.0, errors=(UNREACHABLE,), operations=("dynamodb",))


@contextmanager
def failing(cloud: LocalCloud, plan: FaultPlan) -> Iterator[None]:
    """Every function with a switched plan meets `plan` inside the block."""
    switches = {p.switch for p in cloud.config.faults.values() if p.switch}
    assert switches, "the cloud's functions have no switched fault plan"
    for switch in switches:
        Path(switch).write_text(plan.to_json())
    try:
        yield
    finally:
        for switch in switches:
            Path(switch).unlink(missing_ok=True)


@contextmanager
def frozen(cloud: LocalCloud, name: str = DYNAMODB_LOCAL) -> Iterator[None]:
    """An engine (DynamoDB Local, or moto server: S3, SQS, Secrets Manager) stopped (SIGSTOP) inside
    the block: connections open, nothing answers."""
    (engine,) = [e for e in cloud.engines if e.name == name]
    assert engine.process is not None
    os.killpg(engine.process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.killpg(engine.process.pid, signal.SIGCONT)
