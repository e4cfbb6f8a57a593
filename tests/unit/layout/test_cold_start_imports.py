"""A handler's init leaves boto3 for its first AWS call (a cold-start lever bench/cold_start.py
measures: about 150 ms of CPU): importing the handlers, one after the other in a fresh interpreter,
never loads `boto3`, with tracing on as in AWS (the counters' too, since their exactly-once
increments replaced Powertools Idempotency, whose package imports boto3).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

LAMBDAS = Path(__file__).resolve().parents[3] / "lambdas"
# Imports each module named on the command line in turn; prints the first one after which boto3 is loaded.
SCRIPT = r"""
import importlib, json, sys
culprit = None
for module in sys.argv[1:]:
    importlib.import_module(module)
    if culprit is None and "boto3" in sys.modules:
        culprit = module
print(json.dumps(culprit))
"""


def first_to_load_boto3(modules: list[str]) -> str | None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *modules],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(LAMBDAS), "POWERTOOLS_TRACE_DISABLED": "false", "AWS_REGION": "us-east-1"},
    )
    culprit: str | None = json.loads(done.stdout)
    return culprit


def test_no_handler_imports_boto3_at_init() -> None:
    handlers = sorted(
        ".".join(path.relative_to(LAMBDAS).with_suffix("").parts)
        for path in LAMBDAS.rglob("handler.py")
        if "__pycache__" not in path.parts
    )
    assert len(handlers) > 10
    assert first_to_load_boto3(handlers) is None
