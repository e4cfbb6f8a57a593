"""common.instants: one fixed-width text per instant, years 0001-9999, checked at the boundary."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from tatami_functions.common.instants import (
    BEFORE_EVERY_INSTANT,
    EARLIEST,
    LATEST,
    AwareInstant,
    Instant,
    instant,
    just_before,
)


def test_instants_are_the_seed_format_in_utc() -> None:
    assert instant(datetime.fromisoformat("2011-12-15T09:00:00+09:00")) == "2011-12-15T00:00:00.000Z"
    assert instant(datetime(2011, 12, 11, 0, 40, 57, 165000)) == "2011-12-11T00:40:57.165Z"


def test_lower_bounds_round_up_and_upper_bounds_down_to_stored_precision() -> None:
    moment = datetime(2011, 12, 11, 0, 40, 57, 165400)
    assert instant(moment, round_up=True) == "2011-12-11T00:40:57.166Z"
    assert instant(moment) == "2011-12-11T00:40:57.165Z"
    assert just_before(datetime(2024, 1, 6)) == "2024-01-05T23:59:59.999Z"
    assert just_before(moment) == "2011-12-11T00:40:57.165Z"  # .165 < .1654: still before
    assert just_before(datetime(1, 1, 1)) == BEFORE_EVERY_INSTANT < EARLIEST


def test_every_year_from_0001_to_9999_has_one_width_and_sorts_as_text_in_time_order() -> None:
    rng = random.Random(28)
    moments = [datetime(1, 1, 1, tzinfo=UTC), datetime(9999, 12, 31, 23, 59, 59, 999000, tzinfo=UTC)]
    moments += [datetime(year, 6, 1, tzinfo=UTC) for year in (9, 99, 999, 1000, 1969, 1970, 2025)]
    moments += [datetime(1, 1, 1, tzinfo=UTC) + timedelta(days=rng.randrange(3_652_058)) for _ in range(500)]
    texts = [instant(moment) for moment in moments]
    assert {len(text) for text in texts} == {24}
    assert sorted(texts) == [instant(moment) for moment in sorted(moments)]
    assert [datetime.fromisoformat(text) for text in texts] == moments  # the answer parses back
    assert (texts[0], texts[1]) == (EARLIEST, LATEST)
    assert instant(datetime(999, 6, 1)) == "0999-06-01T00:00:00.000Z"


class _Query(BaseModel):
    at: Instant
    aware: AwareInstant | None = None


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("at", "0001-01-01T00:00:00+09:00"),  # year 0 in UTC
        ("at", "9999-12-31T23:00:00-05:00"),  # year 10000 in UTC
        ("at", "9999-12-31T23:59:59.9995"),  # rounds up past the last stored instant
        ("aware", "0001-01-01T08:59:59+09:00"),
    ],
)
def test_instants_outside_the_stored_years_are_refused_naming_the_field(field: str, value: str) -> None:
    fields: dict[str, Any] = {"at": "2020-01-01T00:00:00Z", field: value}
    with pytest.raises(ValidationError) as refused:
        _Query(**fields)
    (error,) = refused.value.errors()
    assert error["loc"] == (field,) and "years 0001-9999" in error["msg"]


def test_the_extremes_themselves_are_accepted() -> None:
    query = _Query(at="0001-01-01T09:00:00+09:00", aware="9999-12-31T23:59:59.999Z")
    assert instant(query.at) == EARLIEST and query.aware is not None and instant(query.aware) == LATEST
    assert instant(datetime(5, 5, 5, 5, tzinfo=timezone(timedelta(hours=5)))) == "0005-05-05T00:00:00.000Z"
