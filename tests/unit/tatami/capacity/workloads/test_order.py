"""The shape of a bulk load's order (`workloads.order`), at any speed of its keys."""

from __future__ import annotations

from tatami.capacity.model.keys import key_hash
from tatami.capacity.workloads.builders import EXPORT, FILE_ORDER, SHUFFLED, Setting, keys_workload
from tatami.capacity.workloads.order import LoadShape

FAST = [(f"user-{key}", row) for key in range(60) for row in range(300)]  # a new key every 300 rows


def shape(keys: list[tuple[str, object]], order: str) -> LoadShape:
    found = keys_workload("load", keys, Setting(), order=order).shape
    assert found is not None
    return found


def test_keys_in_order_are_ordered_however_fast_they_change_and_shuffled_they_are_not() -> None:
    for rows in (2000, 300, 20):
        keys = [(f"user-{key}", row) for key in range(20_000 // rows) for row in range(rows)]
        assert shape(keys, FILE_ORDER).ordered, rows
    shuffled = shape(FAST, SHUFFLED)
    assert not shuffled.ordered and abs(shuffled.locality) < 0.05


def test_an_export_reloaded_in_order_walks_the_partitions_even_with_one_item_a_key() -> None:
    one_each = [(f"user-{n}", 0) for n in range(5000)]
    exported = shape(one_each, EXPORT)
    assert exported.ordered and exported.same > 0.99
    assert not shape(one_each, FILE_ORDER).ordered  # names in order hash anywhere: as good as shuffled
    load = keys_workload("load", one_each, Setting(), order=EXPORT)
    hashes = [request[1] for request in load.client._pending]  # type: ignore[attr-defined]
    assert hashes == sorted(key_hash(key, 0) for key, _ in one_each)


def test_one_key_is_not_an_order_to_shuffle_and_the_shuffled_rate_is_the_busiest_partitions() -> None:
    assert not shape([("device", n) for n in range(5000)], FILE_ORDER).ordered  # a hot key, whatever order
    even = LoadShape(4, (0.25,) * 4, 1.0, 5000.0, 1.0)
    assert even.shuffled_rate(1000.0, 4000.0) == 4000.0  # the table's limit
    uneven = LoadShape(4, (0.4, 0.2, 0.2, 0.2), 1.0, 5000.0, 2.0)
    assert uneven.shuffled_rate(1000.0, 40_000.0) == 1250.0  # 1,000 units / (40% x 2 units an item)
    eight = LoadShape(8, (0.125,) * 8, 1.0, 5000.0, 1.0)
    assert eight.shuffled_rate(1000.0, 40_000.0) == 5000.0  # the loader's own pace
