"""Seed 004's locker locations: drill-down keys on level boundaries."""

from __future__ import annotations

import pytest

from tatami_functions.lockers.locations import area_prefix, normalize_location


def test_locations_drill_down_on_level_boundaries() -> None:
    assert normalize_location("千代田区/紀尾井町") == "千代田区#紀尾井町"
    assert area_prefix("千代田区#紀尾井町") == "千代田区#紀尾井町#"
    assert area_prefix(None) is None
    for bad in ("千代田区##紀尾井町", "a#b#c#d#e", "#"):
        with pytest.raises(ValueError):
            normalize_location(bad)
