"""Business listings (seed 002): list a type of business by location, read and write one listing.

Each function takes the repository to use, the function's own (`repository()`) when not given.
"""

from __future__ import annotations

from typing import Any

from tatami_functions.businesses import repository as storage
from tatami_functions.businesses.repository import BusinessesRepository
from tatami_functions.businesses.schemas import Business
from tatami_functions.common.paging import cursor_from, scope


def by_location(
    business_type: str,
    levels: tuple[str, ...],
    limit: int,
    token: str | None,
    repository: BusinessesRepository | None = None,
) -> dict[str, Any]:
    """Businesses of a type, drilled down by location levels (none: every location), one page.

    For example (not run as a doctest)::

        by_location("CoffeeShop", ("USA", "Washington"), 20, None)["items"]
    """
    token_scope = scope("businesses", type=business_type, location=levels)
    page = (repository or storage.repository()).by_location(
        business_type, levels, limit, cursor_from(token, token_scope)
    )
    return page.body(token_scope)


def business(business_id: str, repository: BusinessesRepository | None = None) -> dict[str, Any]:
    """One listing; BusinessNotFoundError (a 404) if there is none."""
    return (repository or storage.repository()).get(business_id)


def save(
    business_id: str, listing: Business, repository: BusinessesRepository | None = None
) -> dict[str, Any]:
    """Create or replace a listing; without a location it is left out of the drill-down."""
    return (repository or storage.repository()).save(business_id, listing)
