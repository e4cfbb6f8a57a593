"""tatami_functions.common.paging: bounds, key conditions, page cuts, plain JSON values."""

from datetime import datetime
from decimal import Decimal

import pytest
from aws_lambda_powertools.event_handler.exceptions import BadRequestError

from tatami_functions.common.attribute_values import low_level, plain
from tatami_functions.common.instants import bounds
from tatami_functions.common.paging import ReadStats, cut, scope
from tatami_functions.common.repository import range_condition
from tatami_functions.common.text import path_name


def test_inverted_bounds_are_a_400_naming_the_lower_one() -> None:
    with pytest.raises(BadRequestError, match=r"^from: 2011-12-31T00:00:00.000Z is after to"):
        bounds(datetime(2011, 12, 31), datetime(2011, 12, 15))
    assert bounds(None, None) == (None, None)


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        ("a", "b", "#k BETWEEN :low AND :high"),
        ("a", None, "#k >= :low"),
        (None, "b", "#k <= :high"),
        (None, None, ""),
    ],
)
def test_range_conditions(low: str | None, high: str | None, expected: str) -> None:
    assert range_condition("#k", low, high)[0] == expected


def test_a_page_asks_one_more_item_to_know_whether_another_page_exists() -> None:
    items = [{"k": {"S": c}, "v": {"N": "1"}} for c in "abc"]
    assert cut(items, None, 3, ["k"]) == (items, None)
    assert cut(items, None, 2, ["k"]) == (items[:2], {"k": {"S": "b"}})
    last_key = {"k": {"S": "c"}}
    assert cut(items, last_key, 5, ["k"]) == (items, last_key)  # DynamoDB stopped early (1 MB)


def test_plain_values_are_json_numbers_and_lists() -> None:
    item = low_level({"Views": 1000, "Score": 1.5, "Tags": ["index", "table"], "Hidden": "x"})
    assert plain(item, hidden=["Hidden"]) == {"Views": 1000, "Score": 1.5, "Tags": ["index", "table"]}
    assert low_level({"Total": 12.34})["Total"] == {"N": "12.34"}
    assert plain({"n": {"N": "12.34"}, "s": {"SS": ["b", "a"]}}) == {"n": 12.34, "s": ["a", "b"]}
    assert plain(low_level({"d": Decimal("3")})) == {"d": 3}


def test_scopes_differ_by_every_value() -> None:
    assert scope("orders", customer="A") != scope("orders", customer="B")
    assert scope("orders", customer="A", status=None) != scope("orders", customer="A", status="PENDING")


def test_path_names_refuse_key_separators() -> None:
    # Decoded once by the resolver (common.text): "%20" here is a literal percent sign.
    assert path_name("Amazon S3", "forum") == "Amazon S3"
    with pytest.raises(BadRequestError, match=r"^forum: must not contain '#'"):
        path_name("a#b", "forum")
    with pytest.raises(BadRequestError, match=r"^subject: must not contain '%'"):
        path_name("DynamoDB%20Thread%201", "subject")


def test_read_stats_add_up() -> None:
    one = ReadStats.of({"ScannedCount": 3, "ConsumedCapacity": {"CapacityUnits": 0.5}})
    assert one + one == ReadStats(6, 2, 1.0)
