"""The 47 prefectures addresses are checked against."""

from __future__ import annotations

import pytest

from tatami_functions.common.prefectures import PREFECTURES, check_prefecture


def test_prefectures_are_the_47() -> None:
    assert len(set(PREFECTURES)) == 47 and "東京都" in PREFECTURES and "北海道" in PREFECTURES
    with pytest.raises(ValueError, match="47 prefectures"):
        check_prefecture("東京")
