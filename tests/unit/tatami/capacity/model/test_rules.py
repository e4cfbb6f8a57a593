"""The small pure pieces: limits and their sources, key order, item sizes."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tatami.capacity.model.items import item_size, read_units, write_units
from tatami.capacity.model.keys import key_hash, sort_bytes
from tatami.capacity.model.limits import SOURCES, Limits


def test_every_constant_names_its_source_and_can_be_overridden() -> None:
    names = {field.name for field in dataclasses.fields(Limits)}
    assert names == set(SOURCES)
    assert all(source.startswith("https://") for source, _ in SOURCES.values())
    changed = Limits.overridden(["partition_write_units=500", "burst-seconds=60"])
    assert (changed.partition_write_units, changed.burst_seconds) == (500.0, 60.0)


@pytest.mark.parametrize(
    ("assignment", "message"),
    [("bogus=1", "NAME one of"), ("burst_seconds=soon", "not a number"), ("window_seconds=0", "positive")],
)
def test_a_bad_override_says_what_is_wrong(assignment: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Limits.overridden([assignment])


@settings(deadline=None)  # a loaded 2-core machine is slow, not wrong
@given(st.integers(-(2**128), 2**128), st.integers(-(2**128), 2**128))
def test_numbers_sort_as_numbers(a: int, b: int) -> None:
    assert (sort_bytes(a) < sort_bytes(b)) == (a < b)


@settings(deadline=None)  # a loaded 2-core machine is slow, not wrong
@given(st.floats(-1e12, 1e12), st.floats(-1e12, 1e12))
def test_fractions_sort_as_numbers(a: float, b: float) -> None:
    assert (sort_bytes(a) < sort_bytes(b)) == (a < b) or a == b


@settings(deadline=None)  # a loaded 2-core machine is slow, not wrong
@given(st.text(), st.text())
def test_strings_sort_by_their_bytes(a: str, b: str) -> None:
    assert (sort_bytes(a) < sort_bytes(b)) == (a.encode() < b.encode())


def test_the_hash_is_stable_for_a_seed_and_moves_with_it() -> None:
    assert key_hash("192") == key_hash("192")
    assert key_hash("192", seed=1) != key_hash("192", seed=2)


def test_item_sizes_and_units_follow_aws_rules() -> None:
    item = {
        "pk": {"S": "v1#4#8.0.0.0/8"},
        "n": {"N": "12345"},
        "flag": {"BOOL": True},
        "m": {"M": {"a": {"S": "xy"}}},
    }
    assert item_size(item) == 2 + 14 + 1 + 4 + 4 + 1 + 1 + (3 + 1 + 2 + 1)
    assert [write_units(size) for size in (1, 1024, 1025, 4096)] == [1, 1, 2, 4]
    assert (read_units(4096), read_units(4097), read_units(4097, consistent=True)) == (0.5, 1.0, 2.0)
