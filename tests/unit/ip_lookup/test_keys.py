"""The ranges table's layout (ip_lookup/keys.py): partition keys, item shapes, version parsing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tatami_functions.ip_lookup.addresses import V4, V6, parse_address, prefix_of
from tatami_functions.ip_lookup.keys import (
    Piece,
    Pointer,
    found_from_item,
    partition_key,
    pointer_from_item,
    version_of,
)

LAMBDAS = Path(__file__).resolve().parents[3] / "lambdas"


def test_partition_keys_carry_version_family_and_prefix() -> None:
    pointer = Pointer(7, ipv4_prefix=8, ipv6_prefix=24)
    assert pointer.partition_key(parse_address("8.8.8.8")) == "v7#4#8.0.0.0/8"
    assert pointer.partition_key(parse_address("0.0.0.0")) == "v7#4#0.0.0.0/8"
    assert pointer.partition_key(parse_address("2606:4700::1111")) == "v7#6#2606:4700::/24"
    assert pointer.partition_key(parse_address("::")) == "v7#6#::/24"


def test_neighbouring_addresses_across_a_boundary_use_different_partitions() -> None:
    pointer = Pointer(1)
    assert pointer.partition_key(parse_address("9.255.255.255")) == "v1#4#9.0.0.0/8"
    assert pointer.partition_key(parse_address("10.0.0.0")) == "v1#4#10.0.0.0/8"


def test_version_of_reads_data_keys_only() -> None:
    assert version_of("v12#6#2001:200::/24") == 12
    assert [version_of(pk) for pk in ("alias#current", "meta#versions", "load#abc", "vx#4#1.0.0.0/8")] == [
        None
    ] * 4


def test_a_piece_round_trips_through_its_item() -> None:
    prefix = prefix_of(parse_address("1.0.0.0"), 8)
    piece = Piece(prefix, 0x01000000, 0x010000FF, "1.0.0.0", "1.0.0.255", {"asn": "13335"}, "a.csv:2")
    item = piece.item(3)
    assert item["pk"] == {"S": "v3#4#1.0.0.0/8"}
    assert item["sk"] == {"B": bytes.fromhex("01000000")}
    found = found_from_item(item)
    assert (found.start, found.end, found.data) == ("1.0.0.0", "1.0.0.255", {"asn": "13335"})
    assert found.covers(parse_address("1.0.0.255")) and not found.covers(parse_address("1.0.1.0"))
    assert not found.covers(parse_address("::1"))


def test_a_gap_piece_has_no_data() -> None:
    prefix = prefix_of(parse_address("::"), 24)
    gap = Piece(prefix, 0, 5, "::", "::5", None, "gap")
    assert found_from_item(gap.item(1)).data is None
    assert len(gap.item(1)["sk"]["B"]) == 16 and partition_key(1, prefix) == "v1#6#::/24"
    assert prefix.family == V6 and V4 != V6


def test_pointer_items_are_read_back() -> None:
    item = {"version": {"N": "4"}, "ipv4_prefix": {"N": "8"}, "ipv6_prefix": {"N": "20"}}
    assert pointer_from_item(item) == Pointer(4, 8, 20)


def test_the_shared_key_modules_need_no_aws_sdk() -> None:
    code = (
        "import sys, tatami_functions.ip_lookup.keys, tatami_functions.ip_lookup.addresses;"
        "assert 'boto3' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": str(LAMBDAS)})
