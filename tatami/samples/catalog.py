"""Every service's sample by the service's name, in the order `tatami local` loads them, and the
samples of a service selection (`tatami local --services`, the stack's context `services`)."""

from __future__ import annotations

from types import ModuleType

from tatami.samples import (
    Sample,
    businesses,
    campaigns,
    carts,
    counters,
    devices,
    documents,
    employees,
    forum,
    invoices,
    ip_lookup,
    lockers,
    orders,
    places,
    replication,
)


def _sample(module: ModuleType) -> Sample:
    """A service's sample, named as its module (the service's package name: tests/unit/layout holds to it)."""
    return Sample(module.__name__.rpartition(".")[2], module.load, module.EXAMPLES)


# Quick loads first, the places (34,000 cities and their index) last: the rest answers meanwhile.
SAMPLES: dict[str, Sample] = {
    sample.name: sample
    for sample in map(
        _sample,
        (
            forum,
            businesses,
            orders,
            ip_lookup,
            devices,
            carts,
            documents,
            lockers,
            campaigns,
            counters,
            invoices,
            employees,
            replication,
            places,
        ),
    )
}


def selected(services: str | None) -> list[Sample]:
    """The samples of the services `services` selects (comma-separated names; None or `all`: every one).

    >>> [sample.name for sample in selected("places, counters")]
    ['counters', 'places']
    >>> len(selected(None)) == len(SAMPLES)
    True
    """
    # The stack's own reading of the context: `tatami local` runs from a checkout, and the CLI's other
    # commands start without `infra` (it is not in the wheel).
    from infra.stacks.selection import ServiceSelection

    selection = ServiceSelection.from_context(services)
    return [sample for sample in SAMPLES.values() if selection.includes(sample.name)]
