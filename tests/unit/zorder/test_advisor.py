"""zorder.advisor: rank attributes as the seed advises (frequently bound AND highly selective)."""

from __future__ import annotations

import math

import pytest

from zorder import WorkloadQuery, advise
from zorder.advisor import MIN_BOUND_SHARE, MIN_EXCLUSION


def test_the_seeds_platinum_flag() -> None:
    # isPlatinumMember is true for 5% of users: selective when queries ask for platinum members only.
    platinum = [WorkloadQuery("platinum offers", 10, {"isPlatinumMember": 0.05, "region": 0.1})]
    others = [WorkloadQuery("regular offers", 10, {"isPlatinumMember": 0.95, "region": 0.1})]
    good = advise(platinum)
    assert [(a.attribute, a.verdict) for a in good] == [
        ("isPlatinumMember", "include"),
        ("region", "include"),
    ]
    assert good[0].score == pytest.approx(0.95)
    bad = {a.attribute: a for a in advise(others)}
    assert bad["isPlatinumMember"].verdict == "leave out"
    assert "not selective" in bad["isPlatinumMember"].reason
    assert bad["isPlatinumMember"].exclusion == pytest.approx(0.05)


def test_rarely_bound_attributes_are_left_out() -> None:
    workload = [
        WorkloadQuery("nearby", 90, {"latitude": 0.01, "longitude": 0.01}),
        WorkloadQuery("big cities", 10, {"population": 0.001}),
    ]
    advice = advise(workload, attributes=["elevation"])
    assert [a.attribute for a in advice] == ["latitude", "longitude", "population", "elevation"]
    by_name = {a.attribute: a for a in advice}
    assert by_name["latitude"].verdict == "include" and by_name["latitude"].bound_share == pytest.approx(0.9)
    assert (
        by_name["population"].verdict == "leave out" and "unbound more often" in by_name["population"].reason
    )
    assert by_name["elevation"].score == 0 and by_name["elevation"].reason == "never bound by the workload"


def test_score_is_bound_share_times_exclusion() -> None:
    workload = [
        WorkloadQuery("a", 3, {"x": 0.2}),
        WorkloadQuery("b", 1, {"x": 0.6}),
        WorkloadQuery("c", 1, {}),
    ]
    (x,) = advise(workload)
    assert x.bound_share == pytest.approx(0.8)
    assert x.exclusion == pytest.approx((3 * 0.8 + 1 * 0.4) / 4)
    assert x.score == pytest.approx(x.bound_share * x.exclusion)
    assert MIN_BOUND_SHARE == MIN_EXCLUSION == 0.5


def test_from_dict() -> None:
    query = WorkloadQuery.from_dict({"name": "q", "frequency": 2, "selectivity": {"a": 0.5}})
    assert query == WorkloadQuery("q", 2, {"a": 0.5})


@pytest.mark.parametrize(
    ("frequency", "selectivity", "error"),
    [
        (0, {}, ValueError),
        (math.inf, {}, ValueError),
        ("often", {}, TypeError),
        (1, {"a": 0}, ValueError),
        (1, {"a": 1.5}, ValueError),
        (1, {"a": True}, ValueError),
    ],
)
def test_bad_queries(frequency: object, selectivity: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error, match="query 'q'"):
        WorkloadQuery("q", frequency, selectivity)  # type: ignore[arg-type]


def test_empty_workload() -> None:
    with pytest.raises(ValueError, match="empty"):
        advise([])
