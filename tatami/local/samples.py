"""Sample data each service loads into the local cloud, and the example requests it suggests.

A service adds one `Sample` to `SAMPLES`. `load` receives the started cloud, writes through the
normal path (the API or the tables the service's own code writes), reports progress with
`progress(done, total)` and returns a one-line summary for the banner.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tatami.samples import counters, ip_ranges, labs, models_forum_orders, models_workshop, places

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Sample:
    name: str
    load: Callable[[LocalCloud, Progress], str]
    examples: tuple[str, ...] = ()  # request paths with query, e.g. "/places/search?latitude_min=35"


SAMPLES: list[Sample] = []
SAMPLES.append(Sample(models_forum_orders.NAME, models_forum_orders.load, models_forum_orders.EXAMPLES))
SAMPLES.append(Sample(ip_ranges.NAME, ip_ranges.load, ip_ranges.EXAMPLES))
SAMPLES.append(Sample(models_workshop.NAME, models_workshop.load, models_workshop.EXAMPLES))
SAMPLES.append(Sample(counters.NAME, counters.load, counters.EXAMPLES))
SAMPLES.append(Sample(labs.NAME, labs.load, labs.EXAMPLES))
SAMPLES.append(Sample(places.NAME, places.load, places.EXAMPLES))
