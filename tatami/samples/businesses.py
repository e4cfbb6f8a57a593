"""Sample data of the businesses service: seed 002's three GSI records, plus demo listings that make
each drill-down level answer (Seattle, Spokane vs Spokane Valley, Tokyo) and one online shop left out
of the sparse index (data/seed_002_businesses.json), written through the service's repository."""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

from tatami.samples import DATA
from tatami.target import cloud_target
from tatami_functions import stack_outputs

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress

EXAMPLES = (
    "/businesses?type=CoffeeShop&location=USA",
    "/businesses?type=Restaurant&location=USA:Washington",
)


@cache
def business_data() -> dict[str, Any]:
    """Seed 002's Business records (`seed`), its three queries (`queries`) and the `demo` listings."""
    data: dict[str, Any] = json.loads((DATA / "seed_002_businesses.json").read_text(encoding="utf-8"))
    return data


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    """Save the seed's and the demo listings; a one-line summary."""
    from tatami_functions.businesses.repository import BusinessesRepository
    from tatami_functions.businesses.schemas import Business

    target = cloud_target(cloud)
    businesses = BusinessesRepository(
        target.output(stack_outputs.OUTPUT_BUSINESSES_TABLE), target.client("dynamodb")
    )
    listings = [*business_data()["seed"], *business_data()["demo"]]
    for done, listing in enumerate(listings, start=1):
        fields = {key: value for key, value in listing.items() if key != "BusinessId"}
        businesses.save(listing["BusinessId"], Business(**fields))
        progress(done, len(listings))
    return f"{len(listings)} businesses"
