"""campaigns/intersect.py: the leapfrog equals set intersection; the sparse index leads."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tatami_functions.campaigns.intersect import LOWEST, SortedIds, intersect


class FakeIndex:
    """One index value's user ids, answering seeks like DynamoDB (ids >= low, Limit, more?)."""

    def __init__(self, ids: set[str]) -> None:
        self.ids, self.read, self.queries = sorted(ids), 0, 0

    def seek(self, low: str, limit: int) -> tuple[list[str], bool]:
        matching = [i for i in self.ids if i >= low]
        self.queries += 1
        self.read += min(limit, len(matching))
        return matching[:limit], len(matching) > limit


def all_pages(sets: list[set[str]], limit: int, page_size: int) -> list[str]:
    found: list[str] = []
    start: str | None = LOWEST
    while start is not None:
        indexes = [SortedIds(FakeIndex(ids).seek, page_size) for ids in sets]
        page, start = intersect(indexes, start, limit)
        found += page
    return found


ids = st.sets(st.text("abcdef", min_size=1, max_size=3), max_size=40)


@settings(max_examples=200, deadline=None)
@given(st.lists(ids, min_size=1, max_size=3), st.integers(1, 7), st.integers(1, 5))
def test_pages_are_the_sorted_intersection(sets: list[set[str]], limit: int, page_size: int) -> None:
    assert all_pages(sets, limit, page_size) == sorted(set.intersection(*sets))


def test_the_seed_campaign() -> None:
    chiba = {"MAX", "KEN", "AYA", "RIN", "TOM"}
    born_in_december = {"MAX", "SUE", "KEN", "RIN"}
    ordered_in_december = {"MAX", "SUE", "AYA", "RIN", "TOM"}
    assert all_pages([chiba, born_in_december, ordered_in_december], 100, 100) == ["MAX", "RIN"]


def test_a_sparse_condition_keeps_the_dense_ones_from_being_read_in_full() -> None:
    dense = {f"user{n:05d}" for n in range(10_000)}
    rare = FakeIndex({"user00042", "user09001"})
    common = FakeIndex(dense)
    found, resume = intersect([SortedIds(common.seek, 100), SortedIds(rare.seek, 100)], LOWEST, 100)
    assert found == ["user00042", "user09001"] and resume is None
    assert common.read <= 300, "two seeks of one page each (plus the first page), not 10,000 ids"
