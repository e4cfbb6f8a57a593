"""Sample data of the IP lookup service: 3,644 real IPv4 and IPv6 ranges with their ASN and owner.

An extract of the `@ip-location-db/asn` npm package (DB-IP, RouteViews and NRO data, CC BY 4.0; see
data/ip_ranges.ATTRIBUTION.md), loaded through the same code as `tatami load-ip --local`. The
loader is imported when the sample loads, so the local cloud's start-up does not pay for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tatami.samples import DATA as SAMPLE_DATA
from tatami.target import cloud_target
from tatami_functions.stack_outputs import OUTPUT_IP_RANGES_TABLE

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress

DATA = SAMPLE_DATA / "ip_ranges.csv"
EXAMPLES = (
    "/ip/8.8.8.8",
    "/ip/133.11.0.1",
    "/ip/2606:4700:4700::1111",
    "/ip/1.0.2.0",  # a gap between two ranges: 404 "no data"
)


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    """Load the extract into the cloud's ranges table; an already live copy is left as it is.

    For example (not run as a doctest)::

        load(cloud, lambda done, total: None)
        # -> 'v1: 3,644 rows -> 3,967 items (323 gaps, 0 splits) in 10 partitions
        #     (DB-IP/RouteViews/NRO, CC BY 4.0)'
    """
    from tatami.ip_loader.clients import loader_client
    from tatami.ip_loader.load import load as load_ranges
    from tatami.ip_loader.load import prepare
    from tatami.ip_loader.store import RangesStore

    target = cloud_target(cloud)
    store = RangesStore(loader_client(target), target.output(OUTPUT_IP_RANGES_TABLE))
    summary = load_ranges(prepare([DATA]), store, progress=progress)
    return f"v{summary.version}: {summary.describe()} (DB-IP/RouteViews/NRO, CC BY 4.0)"
