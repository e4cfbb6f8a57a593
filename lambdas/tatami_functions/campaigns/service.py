"""What the campaign routes ask: a user's profile, and the candidates meeting every condition asked
(the selective indexes intersected by leapfrogging, `intersect.py`), a page at a time."""

from __future__ import annotations

from typing import Any

from tatami_functions.campaigns.conditions import Condition
from tatami_functions.campaigns.intersect import LOWEST, SortedIds, intersect
from tatami_functions.campaigns.repository import IndexReads, repository
from tatami_functions.campaigns.schemas import ProfileIn
from tatami_functions.common.paging import cursor_from, next_token, scope

# One seek reads at most this many index items (KEYS_ONLY, ~50 bytes each: about 0.5 RCU a page).
SEEK_PAGE = 100


def put_profile(user_id: str, profile: ProfileIn) -> dict[str, Any]:
    """Replace the user's profile; what it now holds (an absent value keeps the user out of its index)."""
    repository().put_profile(user_id, profile.model_dump())
    return {"user_id": user_id, **profile.model_dump(exclude_none=True)}


def profile(user_id: str) -> dict[str, Any]:
    return repository().profile(user_id)


def candidates(asked: list[Condition], limit: int, token: str | None) -> dict[str, Any]:
    """A page of the user ids meeting every condition in `asked` (at least one), in id order, and what
    the search read of each index."""
    token_scope = scope("campaigns.candidates", **{condition.name: condition.value for condition in asked})
    start = cursor_from(token, token_scope)
    users, reads = repository(), IndexReads()
    indexes = [SortedIds(users.seeker(condition, reads), SEEK_PAGE) for condition in asked]
    found, resume = intersect(indexes, LOWEST if start is None else start, limit)
    return {
        "items": found,
        "next": next_token(resume, token_scope),
        "stats": {**reads.to_json(), "items_returned": len(found)},
    }
