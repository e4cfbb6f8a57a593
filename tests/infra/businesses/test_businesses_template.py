"""The businesses table in the synthesized template: the location index is sparse and projects what a
listing shows."""

from __future__ import annotations

from tatami_functions import stack_outputs
from tests.support.synthesis import Synthesized


def test_the_location_index_is_sparse_and_projects_what_a_listing_shows(synthesized: Synthesized) -> None:
    props = synthesized.table(stack_outputs.OUTPUT_BUSINESSES_TABLE)
    (index,) = props["GlobalSecondaryIndexes"]
    assert [k["AttributeName"] for k in index["KeySchema"]] == ["BusinessType", "Location"]
    assert index["Projection"]["NonKeyAttributes"] == ["BusinessName", "BusinessAddress", "PhoneNumber"]
    # Location is no key of the table, so an item may lack it and stay out of the index (sparse).
    assert "Location" not in {k["AttributeName"] for k in props["KeySchema"]}
