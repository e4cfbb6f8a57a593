"""The employees table in the synthesized template: the managers' index is sparse."""

from __future__ import annotations

from tatami_functions import stack_outputs
from tests.support.synthesis import Synthesized, indexes, keys

HASH, RANGE = "HASH", "RANGE"


def test_the_manager_index_is_sparse(synthesized: Synthesized) -> None:
    """is_manager keys GSI_2 alone: no table key and no other index holds it, so only managers' items
    (the only ones carrying it, labs/employees/items.py) are in the index."""
    properties = synthesized.table(stack_outputs.OUTPUT_EMPLOYEES_TABLE)
    holders = [name for name, (on, _p) in indexes(properties).items() if ("is_manager", HASH) in on]
    assert holders == ["GSI_2"] and "is_manager" not in dict(keys(properties["KeySchema"]))
