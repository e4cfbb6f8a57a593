"""The seed's shard formula and the shard keys (lambdas/tatami_functions/counters/sharding.py)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tatami_functions.counters.sharding import (
    MAX_SHARDS,
    PARTITION_WCU,
    parse_shard_key,
    shard_key,
    shards_needed,
)


def test_the_formula_reproduces_the_seeds_votes_example() -> None:
    # Seed 004: 100K * CEILING(ItemSize/1KB) / 1000 = 100 for 1 KB items.
    assert shards_needed(100_000, item_kb=1) == 100


def test_the_safety_factor_gives_the_seeds_150_and_200() -> None:
    assert shards_needed(100_000, safety_factor=1.5) == 150
    assert shards_needed(100_000, safety_factor=2.0) == 200


def test_item_size_rounds_up_to_whole_kilobytes_as_write_units_do() -> None:
    assert shards_needed(100_000, item_kb=0.2) == 100
    assert shards_needed(100_000, item_kb=1.01) == 200
    assert shards_needed(1, item_kb=1) == 1


def test_no_float_rounding_surprise() -> None:
    assert shards_needed(100_000, safety_factor=1.1) == 110  # 100 * 1.1 is 110.00000000000001 in floats


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target_wcu": 0}, "target_wcu 0 must be at least 1"),
        ({"target_wcu": 10, "item_kb": 0}, "item_kb 0 must be within"),
        ({"target_wcu": 10, "item_kb": 401}, "item_kb 401 must be within"),
        ({"target_wcu": 10, "safety_factor": 0.9}, "safety_factor 0.9 must be at least 1"),
    ],
)
def test_bad_arguments_say_which_and_why(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        shards_needed(**kwargs)


@given(st.integers(1, 10_000_000), st.floats(0.01, 400), st.floats(1, 4))
def test_enough_shards_that_none_exceeds_a_partitions_limit(
    target: int, item_kb: float, safety: float
) -> None:
    shards = shards_needed(target, item_kb, safety)
    write_units = -(-item_kb // 1)  # ceil: a write of up to 1 KB is one WCU
    assert target * write_units / shards <= PARTITION_WCU


def test_shard_keys_round_trip_and_refuse_the_separator() -> None:
    assert shard_key("votes-A", 99) == "votes-A#99"
    assert parse_shard_key(shard_key("votes.A_1", MAX_SHARDS - 1)) == ("votes.A_1", MAX_SHARDS - 1)
    with pytest.raises(ValueError, match="does not match"):
        shard_key("a#b", 1)
    for bad in ("votes-A", "votes-A#", "votes-A#x", "#3", "a#b#-1"):
        with pytest.raises(ValueError, match="is not a shard key"):
            parse_shard_key(bad)
