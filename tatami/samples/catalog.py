"""Every service's sample, in the order `tatami local` loads them."""

from __future__ import annotations

from tatami.samples import Sample, counters, ip_ranges, labs, models_forum_orders, models_workshop, places

SAMPLES: list[Sample] = [
    Sample(models_forum_orders.NAME, models_forum_orders.load, models_forum_orders.EXAMPLES),
    Sample(ip_ranges.NAME, ip_ranges.load, ip_ranges.EXAMPLES),
    Sample(models_workshop.NAME, models_workshop.load, models_workshop.EXAMPLES),
    Sample(counters.NAME, counters.load, counters.EXAMPLES),
    Sample(labs.NAME, labs.load, labs.EXAMPLES),
    Sample(places.NAME, places.load, places.EXAMPLES),
]
