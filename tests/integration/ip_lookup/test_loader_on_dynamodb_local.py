"""The loader on DynamoDB Local: versions, idempotent reruns, resumption, verification, the switch."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tatami.ip_loader.exceptions import InterruptedLoadError, SupersededError, VerificationError
from tatami.ip_loader.load import LoadOptions, load, prepare
from tatami.ip_loader.store import RangesStore
from tatami_functions.ip_lookup.addresses import V4, V6
from tatami_functions.ip_lookup.service import resolve
from tests.integration.ip_lookup.conftest import Ranges
from tests.unit.ip_lookup.ranges_oracle import Oracle, Range, expected_body, probes


def dataset(tag: str, count: int, step: int = 512, size: int = 300) -> list[Range]:
    """`count` IPv4 ranges spread over several /8s (and a few IPv6), each named with `tag`."""
    v4 = [
        Range(V4, n * step * 1024, n * step * 1024 + size * 256, {"name": f"{tag}{n}"}) for n in range(count)
    ]
    v6 = [
        Range(V6, (0x2001_0DB8 + n) << 96, ((0x2001_0DB8 + n) << 96) + size, {"name": f"{tag}6-{n}"})
        for n in range(4)
    ]
    return v4 + v6


class FailingClient:
    """DynamoDB Local, except that BatchWriteItem fails for good after `allowed` calls."""

    def __init__(self, client: Any, allowed: int) -> None:
        self._client, self.allowed = client, allowed
        self.lock = threading.Lock()

    def batch_write_item(self, **kwargs: Any) -> Any:
        with self.lock:
            self.allowed -= 1
            if self.allowed < 0:
                raise ConnectionError("the network went away")
        return self._client.batch_write_item(**kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)


class LossyClient(FailingClient):
    """Reports success for a batch it silently shortened by one item (what verification is for)."""

    def batch_write_item(self, **kwargs: Any) -> Any:
        with self.lock:
            self.allowed -= 1
            if self.allowed == 0:
                ((table, requests),) = kwargs["RequestItems"].items()
                kwargs["RequestItems"] = {table: requests[1:]}
        return self._client.batch_write_item(**kwargs)


def test_a_load_writes_every_item_counts_it_and_switches_the_alias(ranges: Ranges) -> None:
    summary = ranges.load(ranges.csv(dataset("a", 40)))
    assert (summary.version, summary.rows, summary.written, summary.previous) == (1, 44, summary.items, None)
    assert summary.wcu == summary.items and summary.items_per_second > 0 and summary.gaps > 0
    alias = ranges.client.get_item(
        TableName=ranges.name, Key={"pk": {"S": "alias#current"}, "sk": {"B": b"\0"}}
    )
    assert alias["Item"]["version"] == {"N": "1"} and alias["Item"]["items"] == {"N": str(summary.items)}
    data_keys = [pk for pk in ranges.scan_keys() if pk.startswith("v1#")]
    assert len(data_keys) == summary.items


def test_loading_the_same_file_again_is_a_no_op_unless_forced(ranges: Ranges) -> None:
    path = ranges.csv(dataset("a", 10))
    first = ranges.load(path)
    again = ranges.load(path)
    assert again.already_live and again.version == first.version and again.written == 0
    forced = ranges.load(path, force=True)
    assert (forced.version, forced.previous, forced.removed) == (2, 1, first.items)
    assert not [pk for pk in ranges.scan_keys() if pk.startswith("v1#")]


def test_a_new_dataset_replaces_the_old_and_old_versions_are_removed(ranges: Ranges) -> None:
    ranges.load(ranges.csv(dataset("a", 10), "a.csv"))
    summary = ranges.load(ranges.csv(dataset("b", 12, step=300), "b.csv"))
    keys = ranges.scan_keys()
    assert {pk.split("#")[0] for pk in keys} == {"v2", "alias", "meta", "load"}
    assert len([pk for pk in keys if pk.startswith("load#")]) == 1  # the old load's manifest went too
    assert resolve(["0.0.0.1"], ranges.cache()).answers[0].body["data"] == {"name": "b0"}
    assert summary.removed > 0


def test_an_interrupted_load_keeps_the_old_dataset_live_and_resumes(ranges: Ranges) -> None:
    ranges.load(ranges.csv(dataset("a", 20), "a.csv"))
    new = dataset("b", 300, step=64, size=100)  # about 600 items: 12 chunks of 50, 2 batches each
    path = ranges.csv(new, "b.csv")
    options = {"chunk_items": 50, "workers": 2}
    with pytest.raises(InterruptedLoadError, match="run the same command again to resume"):
        ranges.load(path, FailingClient(ranges.client, allowed=9), **options)
    assert resolve(["0.0.0.1"], ranges.cache()).version == 1  # lookups never saw the partial v2
    resumed = ranges.load(path, **options)
    assert resumed.version == 2 and resumed.resumed_chunks >= 2
    assert 0 < resumed.written < resumed.items
    oracle, addresses = Oracle(new), probes(new)
    outcomes = resolve([str(a) for a in addresses], ranges.cache()).answers
    assert [o.body if o.status == 200 else None for o in outcomes] == [
        expected_body(a, oracle(a)) for a in addresses
    ]


def test_a_count_mismatch_blocks_the_switch_and_a_rerun_rewrites_the_version(ranges: Ranges) -> None:
    ranges.load(ranges.csv(dataset("a", 10), "a.csv"))
    path = ranges.csv(dataset("b", 10), "b.csv")
    with pytest.raises(VerificationError, match=r"v2 was not switched in: 1 partition\(s\)"):
        ranges.load(path, LossyClient(ranges.client, allowed=2))
    assert resolve(["0.0.0.1"], ranges.cache()).version == 1
    fixed = ranges.load(path)
    assert fixed.version == 2 and fixed.written == fixed.items and fixed.resumed_chunks == 0


class SweepStoppedStore(RangesStore):
    """Stops (as a killed process would) while removing the older version."""

    def stale_keys(self, live: int, segment: int, segments: int) -> Any:
        for n, key in enumerate(super().stale_keys(live, segment, segments)):
            if n == 30:
                raise KeyboardInterrupt
            yield key


def test_a_load_stopped_after_the_switch_finishes_its_clean_up_when_run_again(ranges: Ranges) -> None:
    ranges.load(ranges.csv(dataset("a", 40), "a.csv"))
    path = ranges.csv(dataset("b", 40), "b.csv")
    with pytest.raises(KeyboardInterrupt):
        load(prepare([path]), SweepStoppedStore(ranges.client, ranges.name), LoadOptions(grace=0, workers=1))
    assert ranges.repository().pointer().version == 2  # type: ignore[union-attr]
    assert any(pk.startswith("v1#") for pk in ranges.scan_keys())
    finished = ranges.load(path)
    assert finished.already_live and finished.version == 2 and finished.removed > 0 and finished.written == 0
    assert not any(pk.startswith("v1#") for pk in ranges.scan_keys())
    assert ranges.load(path).removed == 0  # now marked live: a rerun touches nothing


class RacedStore(RangesStore):
    """Another loader switches to a newer version while this one verifies its own."""

    def count(self, pk: str) -> int:
        if not getattr(self, "raced", False):
            self.raced = True
            self.switch({"ipv4_prefix": {"N": "8"}, "ipv6_prefix": {"N": "24"}}, 99)
        return super().count(pk)


def test_a_load_overtaken_by_a_newer_version_is_not_switched_in(ranges: Ranges) -> None:
    path = ranges.csv(dataset("a", 5))
    with pytest.raises(SupersededError, match="v99 went live while v1 loaded"):
        load(prepare([path]), RacedStore(ranges.client, ranges.name), LoadOptions(grace=0))
    assert ranges.repository().pointer().version == 99  # type: ignore[union-attr]


def test_lookups_during_a_reload_never_mix_versions(ranges: Ranges) -> None:
    """Readers keep answering while v2 is written, verified, switched in and v1 is swept away."""
    old, new = dataset("a", 30), dataset("b", 300, step=64, size=100)
    ranges.load(ranges.csv(old, "a.csv"))
    oracles = {1: Oracle(old), 2: Oracle(new)}
    addresses = sorted(set(probes(old)) | set(probes(new)))
    done, seen, errors = threading.Event(), [[], []], []  # type: ignore[var-annotated]

    def read(reader: int, batch: int) -> None:
        cache, start = ranges.cache(ttl=0.05), reader * 7
        while not done.is_set() or len(seen[reader]) < 3 or seen[reader][-1] != 2:
            chosen = [addresses[(start + i * 13) % len(addresses)] for i in range(batch)]
            start += batch
            resolution = resolve([str(a) for a in chosen], cache)
            oracle = oracles[resolution.version or 0]
            for address, outcome in zip(chosen, resolution.answers, strict=True):
                if (outcome.body if outcome.status == 200 else None) != expected_body(
                    address, oracle(address)
                ):
                    errors.append((resolution.version, address, outcome))
            seen[reader].append(resolution.version)

    readers = [threading.Thread(target=read, args=(0, 25)), threading.Thread(target=read, args=(1, 1))]
    for reader in readers:
        reader.start()
    ranges.load(ranges.csv(new, "b.csv"), workers=1)
    done.set()
    for reader in readers:
        reader.join(timeout=60)
    assert errors == []
    for versions in seen:
        assert versions[0] == 1 and versions[-1] == 2 and versions == sorted(versions)
        assert versions.count(1) >= 3  # the readers really read during the load
