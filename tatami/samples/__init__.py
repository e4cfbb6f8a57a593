"""Each service's sample data for the local cloud, and the example requests it suggests.

A service adds one module here with `NAME`, `EXAMPLES` and `load(cloud, progress)`, and one
`Sample` to `tatami.samples.catalog.SAMPLES`. `load` receives the started cloud, writes through the
normal path (the API or the tables the service's own code writes), reports progress with
`progress(done, total)` and returns a one-line summary for the banner.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud

LoadProgress = Callable[[int, int], None]  # (items done, items in all)


@dataclass(frozen=True)
class Sample:
    name: str
    load: Callable[[LocalCloud, LoadProgress], str]
    examples: tuple[str, ...] = ()  # request paths with query, e.g. "/places/search?latitude_min=35"
