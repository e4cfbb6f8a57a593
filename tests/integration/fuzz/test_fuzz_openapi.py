"""Property-based fuzzing of every operation of the OpenAPI document, on the app's local cloud.

schemathesis (settings and the checks left out, with reasons: `schemathesis.toml`) reads the
document the API serves, so a new route or parameter is fuzzed without a line here. The checks: no
5xx, status codes, content types and bodies the document declares; and no operation whose generated
requests were all refused (schemathesis's "validation mismatch" warning: a declared schema looser than
what the API validates keeps fuzzing away from the handlers). `make test` runs a bounded seeded pass
(FUZZ_EXAMPLES per operation, 5 by default); `make fuzz` a longer one with the coverage phase's
boundary cases (FUZZ_PHASES).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tatami.local.cloud import LocalCloud, free_ports
from tatami.samples.forum import forum_items, load_forum
from tatami.target import cloud_target

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "5"))
# `make test` leaves out the coverage phase (2,400 boundary cases, two to three minutes here);
# the unit tests of the gateway and of common/api.py keep its findings fixed.
PHASES = os.environ.get("FUZZ_PHASES", "examples,fuzzing")
# Failures found in a service another issue is rewriting, reported to it; delete an entry with its fix.
KNOWN: dict[tuple[str, str], str] = {}  # failures fuzzing found and nobody fixed yet (none)
# Operations whose schema is looser than their validation by necessity, not by neglect.
LOOSER_BY_DESIGN = {
    # The value's type depends on the path's {field} (a quantity is a number, a category text):
    # JSON Schema cannot tie a body to a path parameter, so most generated values are refused.
    "PUT /users/{user_id}/cart/items/{item_id}/{field}",
    # At least one of three optional query parameters is required (a search without a condition
    # would read every user): OpenAPI cannot say "one of these", so a request without any is a 400.
    "GET /campaigns/candidates",
}


@pytest.fixture(scope="module")
def fuzzed_cloud(app_cloud: LocalCloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    """The app on a local cloud of its own (app_cloud's assembly): what fuzzing writes stays there."""
    config = dataclasses.replace(
        app_cloud.config,
        **free_ports(),
        work_dir=tmp_path_factory.mktemp("fuzzed"),
        faults={},
    )
    cloud = LocalCloud(config).start()
    _seed(cloud)
    yield cloud
    cloud.stop()


def _seed(cloud: LocalCloud) -> None:
    """What schemathesis.toml's fixed path parameters name: a bill, a customer with an invoice and an
    order, seed 001's forum, a counter, a cart item."""
    invoice: dict[str, Any] = {"customer": {"id": "fuzz-customer", "name": "F", "state": "WA"}}
    invoice |= {"date": "2024-05-01", "due_date": "2024-05-21", "status": "Open", "balance": 1}
    invoice["bills"] = [{"bill_id": "fuzz-bill", "due_date": "2024-05-02", "amount": 1, "balance": 1}]
    item = {
        "item_name": "箸",
        "sku": "SKU",
        "quantity": 1,
        "price": 880,
        "category": "食器",
        "sub_category": "箸",
    }
    for method, path, body in [
        ("PUT", "/invoices/fuzz-invoice", invoice),
        ("POST", "/orders", {"CustomerId": "fuzz-customer", "Total": 1}),
        ("PUT", "/counters/fuzz-counter", {"target_wcu": 100}),
        ("PUT", "/users/fuzz-user/cart/items/fuzz-item", item),
    ]:
        response = requests.request(method, f"{cloud.api_url}{path}", json=body, timeout=120)
        assert response.status_code in (200, 201), response.text
    target = cloud_target(cloud)
    load_forum(target, target.client("dynamodb"), forum_items())


def test_every_operation_holds_under_fuzzing(fuzzed_cloud: LocalCloud, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    run = subprocess.run(
        [
            str(Path(sys.executable).with_name("st")),
            "run",
            f"{fuzzed_cloud.api_url}/openapi.json",
            f"--max-examples={EXAMPLES}",
            f"--phases={PHASES}",
            "--no-color",
            "--report=json",
            f"--report-json-path={report}",
        ],
        cwd=REPO,  # schemathesis.toml
        capture_output=True,
        text=True,
        timeout=1800,
    )
    summary = json.loads(report.read_text())
    # No operations at all: schemathesis could not load the document (its answer says why).
    assert summary["operations"] is not None, f"{run.stdout[-4000:]}\n{run.stderr[-2000:]}"
    known, new = _split(summary["failures"])
    print(f"fuzz: {summary['operations']}, {summary['test_cases']}; known: {known}")
    # An operation that errored for the API (a request timed out: a hang) fails too; schemathesis's
    # own "Runtime Error" (seen once on a loaded machine, not reproduced alone) is only reported.
    api_errors = [error for error in summary["errors"] if error["title"] != "Runtime Error"]
    assert summary["operations"]["total"] > 0 and not api_errors, summary["errors"]
    assert not new, f"{new}\n{run.stdout[-12000:]}"
    looser = set(summary["warnings"]["validation_mismatch"]) - LOOSER_BY_DESIGN
    assert not looser, run.stdout[-12000:]


def _split(failures: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    """Failures of the KNOWN list (as text) and every other one."""
    known, new = [], []
    for failure in failures:
        keys = [(failure["code"], operation) for operation in failure["operations"]]
        if all(key in KNOWN for key in keys):
            known += [f"{code} {operation}: {KNOWN[code, operation]}" for code, operation in keys]
        else:
            new.append(failure)
    return known, new
