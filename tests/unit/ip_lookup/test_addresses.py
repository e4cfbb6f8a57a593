"""Addresses, prefixes and their big-endian sort keys (ip_lookup/addresses.py)."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tatami_functions.ip_lookup.addresses import (
    V4,
    V6,
    Address,
    address_from_packed,
    parse_address,
    parse_network,
    prefix_of,
)
from tatami_functions.ip_lookup.exceptions import InvalidAddressError

V4_VALUES = st.integers(0, (1 << 32) - 1)
V6_VALUES = st.integers(0, (1 << 128) - 1)


@pytest.mark.parametrize(
    ("text", "family", "packed"),
    [
        ("0.0.0.0", V4, "00000000"),
        ("255.255.255.255", V4, "ffffffff"),
        ("1.0.32.0", V4, "01002000"),  # the seed's example: 16,785,408
        ("::", V6, "00" * 16),
        ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", V6, "ff" * 16),
        ("2001:db8::1", V6, "20010db8" + "00" * 11 + "01"),
    ],
)
def test_extremes_pack_big_endian(text: str, family: int, packed: str) -> None:
    address = parse_address(text)
    assert address.family == family
    assert address.packed.hex() == packed
    assert address_from_packed(address.packed) == address
    assert str(address) == str(ipaddress.ip_address(text))


def test_the_seed_number_for_1_0_32_0() -> None:
    assert parse_address("1.0.32.0").value == 16_785_408


@given(
    st.sampled_from([(V4, V4_VALUES), (V6, V6_VALUES)]).flatmap(
        lambda fv: st.tuples(st.just(fv[0]), fv[1], fv[1])
    )
)
def test_byte_order_is_numeric_order(case: tuple[int, int, int]) -> None:
    family, a, b = case
    assert (Address(family, a).packed < Address(family, b).packed) == (a < b)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "1.2.3",
        "1.2.3.256",
        "01.2.3.4",
        "1.2.3.4/32",
        " 1.2.3.4",
        "::g",
        "1:2:3:4:5:6:7:8:9",
        "banana",
        "x" * 100,
    ],
)
def test_malformed_text_is_rejected_with_the_text_quoted(text: str) -> None:
    with pytest.raises(InvalidAddressError, match="is not an IPv4 or IPv6 address"):
        parse_address(text)


def test_non_strings_and_zone_indexes_are_rejected() -> None:
    with pytest.raises(InvalidAddressError, match="expected a string"):
        parse_address(167772161)  # type: ignore[arg-type]
    with pytest.raises(InvalidAddressError, match="remove the zone index"):
        parse_address("fe80::1%eth0")


def test_ipv4_mapped_addresses_map_only_when_asked() -> None:
    assert parse_address("::ffff:8.8.8.8", map_ipv4=True) == parse_address("8.8.8.8")
    assert parse_address("::ffff:8.8.8.8").family == V6


@pytest.mark.parametrize(
    ("address", "length", "first", "last", "text"),
    [
        ("10.20.30.40", 8, "10.0.0.0", "10.255.255.255", "10.0.0.0/8"),
        ("0.0.0.0", 8, "0.0.0.0", "0.255.255.255", "0.0.0.0/8"),
        ("255.255.255.255", 8, "255.0.0.0", "255.255.255.255", "255.0.0.0/8"),
        ("2001:db8::1", 24, "2001:d00::", "2001:dff:ffff:ffff:ffff:ffff:ffff:ffff", "2001:d00::/24"),
        ("ffff:ffff::", 24, "ffff:ff00::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ffff:ff00::/24"),
    ],
)
def test_prefixes(address: str, length: int, first: str, last: str, text: str) -> None:
    prefix = prefix_of(parse_address(address), length)
    assert (str(prefix.first), str(prefix.last), str(prefix)) == (first, last, text)
    assert prefix.low == prefix.first.value and prefix.high == prefix.last.value


def test_networks_give_their_first_and_last_address() -> None:
    first, last = parse_network("2001:db8::/32")
    assert (str(first), str(last)) == ("2001:db8::", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff")
    with pytest.raises(InvalidAddressError, match="has host bits set"):
        parse_network("10.0.0.1/8")


def test_addresses_validate_themselves() -> None:
    with pytest.raises(ValueError, match="does not fit in 32 bits"):
        Address(V4, 1 << 32)
    with pytest.raises(ValueError, match="family 5"):
        Address(5, 1)
    with pytest.raises(ValueError, match="4 or 16 bytes"):
        address_from_packed(b"\x01\x02")
