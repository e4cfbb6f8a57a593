"""tatami_functions.orders: derived keys, key conditions, and the sharded merge's pagination."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tatami_functions.common.paging import Item, ReadStats
from tatami_functions.orders import keys
from tatami_functions.orders.repository import INDEX_KEYS, customer_condition
from tatami_functions.orders.schemas import CustomerOrdersQuery, Status
from tatami_functions.orders.sharded import ShardPage, merged_page
from tatami_functions.orders.table import CUSTOMER_ORDERS, CUSTOMER_STATUS_ORDERS, STATUS_ORDERS

KEY = INDEX_KEYS[STATUS_ORDERS.name]


def test_derived_keys_follow_status_date_and_shard() -> None:
    assert keys.derived_keys(Status.PENDING, "2024-05-01T10:00:00.000Z", 3) == {
        "StatusDate": "PENDING#2024-05-01T10:00:00.000Z",
        "StatusShard": "PENDING#3",
        "Shard": 3,
    }
    rng = random.Random(1)
    assert {keys.random_shard(10, rng) for _ in range(500)} == set(range(1, 11))


def test_customer_questions_pick_the_index_the_seed_designs() -> None:
    index, condition, _ = customer_condition(CustomerOrdersQuery("c", low="2024-01-01T00:00:00.000Z"))
    assert (index, condition) == (CUSTOMER_ORDERS.name, "CustomerId = :customer AND OrderDate >= :low")
    pending_before = CustomerOrdersQuery("c", Status.PENDING, high="2024-05-01T00:00:00.000Z")
    index, condition, values = customer_condition(pending_before)
    assert index == CUSTOMER_STATUS_ORDERS.name
    assert condition == "CustomerId = :customer AND StatusDate BETWEEN :low AND :high"
    assert values[":low"] == {"S": "PENDING#"}
    assert values[":high"] == {"S": "PENDING#2024-05-01T00:00:00.000Z"}
    since = CustomerOrdersQuery("c", Status.PENDING, low="2024-05-01T00:00:00.000Z")
    high = customer_condition(since)[2][":high"]["S"]
    assert "PENDING#9999" < high < "PENDING_" and high < "PENDINGX"  # closes PENDING# exactly


def _shards(dates_by_shard: dict[int, list[str]]) -> dict[int, list[Item]]:
    shards = {}
    for shard, dates in dates_by_shard.items():
        rows = sorted((d, f"o-{shard}-{i}") for i, d in enumerate(dates))
        shards[shard] = [
            {"StatusShard": {"S": f"PENDING#{shard}"}, "OrderDate": {"S": d}, "OrderId": {"S": o}}
            for d, o in rows
        ]
    return shards


def _fetcher(shards: dict[int, list[Item]], calls: list[int]) -> Callable[[int, Item | None, int], ShardPage]:
    def fetch(shard: int, start: Item | None, limit: int) -> ShardPage:
        calls.append(shard)
        rows = shards.get(shard, [])
        begin = 0 if start is None else rows.index(start) + 1  # the key is the whole test item
        page = rows[begin : begin + limit]
        last = page[-1] if begin + limit < len(rows) and page else None
        return ShardPage(page, last, ReadStats(len(page), 1, 0.5))

    return fetch


def _all_pages(shards: dict[int, list[Item]], count: int, limit: int) -> tuple[list[list[Item]], list[int]]:
    pages, cursor, calls = [], None, []
    fetch = _fetcher(shards, calls)
    for _ in range(1000):
        items, cursor, _stats = merged_page(fetch, count, limit, cursor, _SerialExecutor(), KEY)
        pages.append(items)
        if cursor is None:
            return pages, calls
    raise AssertionError("pagination did not end")


class _SerialExecutor:
    def map(self, fn: Callable[[Any], Any], items: Any) -> Any:
        return map(fn, items)


dates = st.lists(st.sampled_from([f"2024-05-0{d}T00:00:00.000Z" for d in range(1, 8)]), max_size=12)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.integers(1, 5), dates, max_size=5), st.integers(1, 7))
def test_paging_through_shards_yields_every_item_once_in_date_order(
    by_shard: dict[int, list[str]], limit: int
) -> None:
    shards = _shards(by_shard)
    pages, _ = _all_pages(shards, 5, limit)
    flat = [item for page in pages for item in page]
    everything = [item for rows in shards.values() for item in rows]
    assert sorted(i["OrderId"]["S"] for i in flat) == sorted(i["OrderId"]["S"] for i in everything)
    assert [i["OrderDate"]["S"] for i in flat] == sorted(i["OrderDate"]["S"] for i in flat)
    assert all(len(page) == limit for page in pages[:-1])
    assert pages[-1] or len(pages) == 1  # no trailing empty page


def test_exhausted_shards_are_not_queried_again() -> None:
    shards = _shards(
        {1: ["2024-05-01T00:00:00.000Z"], 2: [f"2024-05-0{d}T00:00:00.000Z" for d in range(2, 8)]}
    )
    pages, calls = _all_pages(shards, 10, 2)
    assert [len(p) for p in pages] == [2, 2, 2, 1]
    assert calls.count(1) == 1 and calls.count(3) == 1  # shard 1 done on page 1; shard 3 empty
    assert calls.count(2) == 4
