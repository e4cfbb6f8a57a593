"""Lookups on DynamoDB Local: edges of both families, partition boundaries, gaps, 0.5 RCU, and
generated datasets against the in-memory bisect oracle."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from tatami_functions.ip_lookup.addresses import V4, V6, Address, parse_address
from tatami_functions.ip_lookup.service import resolve
from tests.integration.ip_lookup.conftest import Ranges
from tests.unit.ip_lookup.ranges_oracle import MAX, Oracle, Range, datasets, expected_body, probes

EDGES = [
    Range(V4, 0, 255, {"name": "zero"}),  # 0.0.0.0/24
    Range(V4, 0x09FFFF00, 0x0A0000FF, {"name": "across 9/8 and 10/8"}),
    Range(V4, 0x0A000100, 0x0A0001FF, {"name": "ten-one"}),  # a gap before it: 10.0.1.0 follows .0.255
    Range(V4, 0x0A000300, 0x0A0003FF, {"name": "ten-three"}),  # a gap: 10.0.2.0-10.0.2.255
    Range(V4, MAX[V4] - 255, MAX[V4], {"name": "top"}),  # 255.255.255.0/24
    Range(V6, 0, 0xFF, {"name": "v6 zero"}),
    Range(V6, 0x2001_0DFF << 96, (0x2001_0E00 << 96) + 5, {"name": "across two /24s"}),
    Range(V6, MAX[V6] - 0xFF, MAX[V6], {"name": "v6 top"}),
]


def answer(ranges: Ranges, text: str) -> tuple[int, str | None]:
    outcome = resolve([text], ranges.cache()).answers[0]
    return outcome.status, outcome.body.get("data", {}).get("name")


def test_first_and_last_addresses_extremes_boundaries_and_gaps(ranges: Ranges) -> None:
    ranges.load(ranges.csv(EDGES))
    expected = {
        "0.0.0.0": (200, "zero"),
        "0.0.0.255": (200, "zero"),
        "0.0.1.0": (404, None),
        "9.255.254.255": (404, None),
        "9.255.255.0": (200, "across 9/8 and 10/8"),
        "9.255.255.255": (200, "across 9/8 and 10/8"),  # last address of partition 9/8
        "10.0.0.0": (200, "across 9/8 and 10/8"),  # first address of partition 10/8
        "10.0.0.255": (200, "across 9/8 and 10/8"),
        "10.0.1.0": (200, "ten-one"),
        "10.0.2.0": (404, None),
        "10.0.2.255": (404, None),
        "10.0.3.255": (200, "ten-three"),
        "10.255.255.255": (404, None),
        "11.0.0.0": (404, None),  # a partition with no data at all
        "255.255.254.255": (404, None),
        "255.255.255.0": (200, "top"),
        "255.255.255.255": (200, "top"),
        "::": (200, "v6 zero"),
        "::ff": (200, "v6 zero"),
        "::100": (404, None),
        "2001:dff::": (200, "across two /24s"),
        "2001:dff:ffff:ffff:ffff:ffff:ffff:ffff": (200, "across two /24s"),
        "2001:e00::": (200, "across two /24s"),
        "2001:e00::5": (200, "across two /24s"),
        "2001:e00::6": (404, None),
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00": (200, "v6 top"),
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff": (200, "v6 top"),
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:feff": (404, None),
    }
    assert {text: answer(ranges, text) for text in expected} == expected


def test_a_lookup_is_one_query_of_half_a_read_unit(ranges: Ranges) -> None:
    ranges.load(ranges.csv(EDGES))
    table = ranges.repository()
    pointer = table.pointer()
    assert pointer is not None
    for text in ("10.0.1.7", "10.0.2.9", "::ff", "255.255.255.255", "2001:e00::1"):  # ranges and gaps
        found, consumed = table.find(pointer, parse_address(text))
        assert found is not None and consumed == 0.5, text


@settings(max_examples=12, suppress_health_check=list(HealthCheck), deadline=None)
@given(generated=datasets())
def test_generated_datasets_agree_with_the_bisect_oracle(ranges: Ranges, generated: list[Range]) -> None:
    ranges.load(ranges.csv(generated), force=True)
    oracle, addresses = Oracle(generated), probes(generated)
    resolution = resolve([str(a) for a in addresses], ranges.cache())
    for address, outcome in zip(addresses, resolution.answers, strict=True):
        expected = expected_body(address, oracle(address))
        assert (outcome.body if outcome.status == 200 else None) == expected, address
    assert Address(V4, 0) in addresses
