"""The advisor: which attributes deserve a place in a Z-order schema, given the expected workload.

The seed's rule: include attributes whose bounds are both *frequently defined* and *highly selective*.
Each attribute is scored by the workload-weighted share of its values that queries exclude (an unbound
query excludes nothing), which is high only when both hold; the reason column says which test failed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MIN_BOUND_SHARE", "MIN_EXCLUSION", "Advice", "WorkloadQuery", "advise"]

# The seed: an index attribute unbound more often than bound can lower overall query performance.
MIN_BOUND_SHARE = 0.5
# Below this mean exclusion a bound removes too little to pay for the attribute's bits
# (the seed's isPlatinumMember = false removes 5% of values and doubles the search space).
MIN_EXCLUSION = 0.5


@dataclass(frozen=True, slots=True)
class WorkloadQuery:
    """A query of the expected workload: how often it runs and how selective each bound is.

    ``selectivity[attr]`` is the share of the attribute's values the bound keeps (an exact match on one
    of 1,000 values is 0.001); attributes not listed are unbound by this query.

    >>> WorkloadQuery("platinum users", 10, {"isPlatinumMember": 0.05}).frequency
    10
    """

    name: str
    frequency: float
    selectivity: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.frequency, bool) or not isinstance(self.frequency, int | float):
            raise TypeError(f"query {self.name!r}: frequency must be a number, got {self.frequency!r}")
        if not (math.isfinite(self.frequency) and self.frequency > 0):
            raise ValueError(f"query {self.name!r}: frequency must be > 0, got {self.frequency!r}")
        for attr, s in self.selectivity.items():
            if isinstance(s, bool) or not isinstance(s, int | float) or not 0 < s <= 1:
                raise ValueError(
                    f"query {self.name!r}: selectivity of {attr!r} must be in (0, 1] (share of values kept),"
                    f" got {s!r}; leave unbound attributes out"
                )
        object.__setattr__(self, "selectivity", dict(self.selectivity))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WorkloadQuery:
        """From ``{"name": ..., "frequency": ..., "selectivity": {attr: share}}``."""
        return cls(str(data.get("name", "?")), data.get("frequency", 1), data.get("selectivity", {}))


@dataclass(frozen=True, slots=True)
class Advice:
    """One attribute's verdict; ``score = bound_share * exclusion``."""

    attribute: str
    score: float
    bound_share: float  # workload-weighted share of queries that bind it
    exclusion: float  # mean share of its values excluded, when bound
    verdict: str  # "include" or "leave out"
    reason: str


def _verdict(bound_share: float, exclusion: float) -> tuple[str, str]:
    used = f"bound in {bound_share:.0%} of queries, excludes {exclusion:.0%} of values when bound"
    if bound_share == 0:
        return "leave out", "never bound by the workload"
    if bound_share < MIN_BOUND_SHARE:
        return "leave out", f"{used}; unbound more often than bound, it widens most queries"
    if exclusion < MIN_EXCLUSION:
        return "leave out", f"{used}; not selective enough to pay for its bits"
    return "include", f"{used}; frequently bound and selective"


def advise(workload: Sequence[WorkloadQuery], attributes: Iterable[str] = ()) -> list[Advice]:
    """Rank attributes as the seed advises (frequently bound AND highly selective), best first.

    Parameters
    ----------
    workload : Sequence[WorkloadQuery]
        The expected queries, each with its frequency and the selectivity of each bound.
    attributes : Iterable[str], optional
        Candidates the workload may never bind (they rank last, "never bound").

    Returns
    -------
    list[Advice]
        One per attribute, by descending ``score = bound_share * exclusion``, with a verdict and reason.

    Raises
    ------
    ValueError
        The workload is empty.

    Examples
    --------
    >>> near = WorkloadQuery("near", 8, {"lat": 0.01, "lon": 0.01})
    >>> queries = [near, WorkloadQuery("big", 2, {"pop": 0.5})]
    >>> [(a.attribute, round(a.score, 3), a.verdict) for a in advise(queries)]
    [('lat', 0.792, 'include'), ('lon', 0.792, 'include'), ('pop', 0.1, 'leave out')]
    """
    if not workload:
        raise ValueError("the workload is empty: list the queries you expect, with their frequency")
    total = sum(q.frequency for q in workload)
    names = sorted({*attributes, *(a for q in workload for a in q.selectivity)})
    advice = []
    for name in names:
        binding = [(q.frequency, q.selectivity[name]) for q in workload if name in q.selectivity]
        weight = sum(f for f, _ in binding)
        excluded = sum(f * (1 - s) for f, s in binding)
        exclusion = excluded / weight if weight else 0.0
        verdict, reason = _verdict(weight / total, exclusion)
        advice.append(Advice(name, excluded / total, weight / total, exclusion, verdict, reason))
    return sorted(advice, key=lambda a: (-a.score, a.attribute))
