"""Each service's sample data for the local cloud, and the example requests it suggests.

One module per service, named for its package in `lambdas/tatami_functions/`, with `EXAMPLES` and
`load(cloud, progress)`, listed in `tatami.samples.catalog.SAMPLES` by that name (so `tatami local
--services` loads exactly the selected services' samples). `load` receives the started cloud, writes
through the normal path (the API, or the tables the service's own code writes; see `writing`),
reports progress with `progress(done, total)` and returns a one-line summary for the banner.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud

LoadProgress = Callable[[int, int], None]  # (items done, items in all)
DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Sample:
    name: str  # the service's package name, as `--services` selects it
    load: Callable[[LocalCloud, LoadProgress], str]
    examples: tuple[str, ...] = ()  # request paths with query, e.g. "/places/search?latitude_min=35"


@cache
def _workshop_file() -> str:
    return (DATA / "models_workshop.json").read_text(encoding="utf-8")


def workshop_data() -> dict[str, Any]:
    """Seed 004's models workshop (data/models_workshop.json): devices', carts', documents', lockers'
    and campaigns' samples, a fresh copy on each call (the loaders pop keys out of it)."""
    return dict(json.loads(_workshop_file()))
