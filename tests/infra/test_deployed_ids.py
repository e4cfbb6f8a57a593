"""The resources that hold data keep the logical IDs they were deployed with.

CloudFormation replaces a resource whose logical ID changes: for a table, a bucket, a queue or a
secret that means a new, empty one (or, with deletion protection, a failed deploy). Moving constructs
around the code must not do that, so the IDs of every stateful resource are recorded in
tests/fixtures/deployed_logical_ids.json (taken from the stack as deployed before the services were
regrouped). A construct that moves keeps its resources' IDs: a child with the id "Default" is left out
of the logical ID, so `Service(scope, "Carts")` holding its table as "Default" gives the table the ID it
had as `scope/Carts`. A new stateful resource is added to the file on purpose.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.synthesis import Synthesized

DEPLOYED = json.loads((Path(__file__).parents[1] / "fixtures" / "deployed_logical_ids.json").read_text())
STATEFUL = frozenset(DEPLOYED.values())


def test_every_stateful_resource_keeps_its_logical_id(synthesized: Synthesized) -> None:
    now = {
        logical_id: resource["Type"]
        for template in (synthesized.template, synthesized.monitoring)
        for logical_id, resource in template["Resources"].items()
        if resource["Type"] in STATEFUL
    }
    assert {k: v for k, v in DEPLOYED.items() if now.get(k) != v} == {}, "replaced on the next deploy"
    assert {k: v for k, v in now.items() if k not in DEPLOYED} == {}, "new: add it to the fixture"
