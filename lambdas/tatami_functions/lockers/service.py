"""What the locker routes ask: a prefecture's lockers drilled down by area, a locker by id, and a
locker added, changed, moved or removed (the repository keeps its id pointer in step)."""

from __future__ import annotations

from typing import Any

from tatami_functions.common.paging import cursor_from, scope
from tatami_functions.lockers.locations import Locker, area_prefix
from tatami_functions.lockers.repository import repository
from tatami_functions.lockers.schemas import LockerIn


def in_area(state: str, location: str | None, limit: int, token: str | None) -> dict[str, Any]:
    """A page of a prefecture's lockers under the area path `location` (all of them without one)."""
    token_scope = scope("lockers", state=state, location=location)
    page = repository().in_area(state, area_prefix(location), limit, cursor_from(token, token_scope))
    return page.body(token_scope)


def locker(locker_id: str) -> Locker:
    return repository().get(locker_id)


def put_locker(locker_id: str, body: LockerIn) -> tuple[Locker, bool]:
    """Write the locker (moving it if its place changed); the locker and whether it is new."""
    written = Locker(locker_id, body.state, body.location, body.name, body.address)
    return written, repository().put(written)


def delete_locker(locker_id: str) -> None:
    repository().delete(locker_id)
