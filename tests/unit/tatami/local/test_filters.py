"""tatami/local/events/filters.py: Lambda event filtering on stream records."""

import pytest

from tatami.local.events.filters import matches_any

RECORD = {
    "eventName": "MODIFY",
    "dynamodb": {"NewImage": {"status": {"S": "shipped"}, "total": {"N": "120"}, "tags": {"L": []}}},
}


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ({"eventName": ["INSERT", "MODIFY"]}, True),
        ({"eventName": ["INSERT"]}, False),
        ({"dynamodb": {"NewImage": {"status": {"S": [{"prefix": "ship"}]}}}}, True),
        ({"dynamodb": {"NewImage": {"status": {"S": [{"suffix": "ped"}]}}}}, True),
        ({"dynamodb": {"NewImage": {"status": {"S": [{"anything-but": ["shipped"]}]}}}}, False),
        ({"dynamodb": {"NewImage": {"missing": [{"exists": False}]}}}, True),
        ({"dynamodb": {"NewImage": {"status": [{"exists": False}]}}}, False),
        ({"dynamodb": {"NewImage": {"total": {"N": [{"numeric": [">", 100, "<=", 120]}]}}}}, True),
        ({"dynamodb": {"NewImage": {"total": {"N": [{"numeric": [">", 120]}]}}}}, False),
        ({"dynamodb": {"NewImage": {"status": {"S": [{"equals-ignore-case": "SHIPPED"}]}}}}, True),
        ({"dynamodb": {"OldImage": {"status": {"S": ["shipped"]}}}}, False),
    ],
)
def test_pattern_rules(pattern: dict, expected: bool) -> None:
    assert matches_any(RECORD, [pattern]) is expected


def test_no_patterns_match_everything_and_any_pattern_suffices() -> None:
    assert matches_any(RECORD, [])
    assert matches_any(RECORD, [{"eventName": ["REMOVE"]}, {"eventName": ["MODIFY"]}])


def test_unknown_rule_is_reported() -> None:
    with pytest.raises(ValueError, match="wildcard"):
        matches_any(RECORD, [{"eventName": [{"wildcard": "MOD*"}]}])
