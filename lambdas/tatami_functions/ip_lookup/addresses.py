"""IP addresses as the ranges table orders them: a family and an unsigned integer of 32 or 128 bits.

Sort keys are the address's big-endian bytes (4 for IPv4, 16 for IPv6): DynamoDB compares Binary
values as unsigned bytes, so byte order is numeric order, and 128 bits fit where a Number (38 decimal
digits, 2^128 needs 39) would not. Pure standard library: the loader imports this module too.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from tatami_functions.ip_lookup.exceptions import InvalidAddressError

V4, V6 = 4, 6
BITS = {V4: 32, V6: 128}
_MAX_TEXT = 64  # the longest IPv6 text (IPv4-suffixed, no zone) is 45 characters


@dataclass(frozen=True, slots=True, order=True)
class Address:
    """One address: `family` 4 or 6 and its integer `value`."""

    family: int
    value: int

    def __post_init__(self) -> None:
        if self.family not in BITS:
            raise ValueError(f"family {self.family} must be 4 or 6")
        if not 0 <= self.value < 1 << BITS[self.family]:
            raise ValueError(f"{self.value} does not fit in {BITS[self.family]} bits")

    @property
    def packed(self) -> bytes:
        """Big-endian bytes: the sort key.

        >>> parse_address("10.0.0.1").packed.hex()
        '0a000001'
        """
        return self.value.to_bytes(BITS[self.family] // 8, "big")

    def __str__(self) -> str:
        if self.family == V4:
            return str(ipaddress.IPv4Address(self.value))
        return str(ipaddress.IPv6Address(self.value))


@dataclass(frozen=True, slots=True, order=True)
class Prefix:
    """The first `length` bits of an address: one partition of the ranges table."""

    family: int
    length: int
    value: int  # the prefix bits, right-aligned

    @property
    def low(self) -> int:
        """The integer value of the first address."""
        return self.value << (BITS[self.family] - self.length)

    @property
    def high(self) -> int:
        """The integer value of the last address."""
        host_bits = BITS[self.family] - self.length
        return (self.value << host_bits) | ((1 << host_bits) - 1)

    @property
    def first(self) -> Address:
        return Address(self.family, self.low)

    @property
    def last(self) -> Address:
        return Address(self.family, self.high)

    def __str__(self) -> str:
        """CIDR text, e.g. ``8.0.0.0/8`` or ``2001:200::/24``."""
        return f"{self.first}/{self.length}"


def prefix_of(address: Address, length: int) -> Prefix:
    """The partition of `address` for a prefix of `length` bits.

    >>> str(prefix_of(parse_address("2001:db8::1"), 24))
    '2001:d00::/24'
    """
    return Prefix(address.family, length, address.value >> (BITS[address.family] - length))


def parse_address(text: str, *, map_ipv4: bool = False) -> Address:
    """Parse IPv4 or IPv6 text; InvalidAddressError says why it is not an address.

    `map_ipv4` reads an IPv4-mapped IPv6 address (``::ffff:8.8.8.8``, what dual-stack sockets
    report) as the IPv4 address it carries.

    >>> parse_address("::ffff:8.8.8.8", map_ipv4=True)
    Address(family=4, value=134744072)
    >>> parse_address("1.2.3")
    Traceback (most recent call last):
    ...
    tatami_functions.ip_lookup.exceptions.InvalidAddressError: '1.2.3' is not an IPv4 or IPv6 address
    """
    if not isinstance(text, str):
        raise InvalidAddressError(f"{text!r} is not an IPv4 or IPv6 address (expected a string)")
    if len(text) > _MAX_TEXT:
        raise InvalidAddressError(f"{text[:_MAX_TEXT]!r}... is not an IPv4 or IPv6 address (too long)")
    try:
        parsed = ipaddress.ip_address(text)
    except ValueError:
        raise InvalidAddressError(f"{text!r} is not an IPv4 or IPv6 address") from None
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.scope_id is not None:
            raise InvalidAddressError(f"{text!r}: remove the zone index (%{parsed.scope_id})")
        if map_ipv4 and parsed.ipv4_mapped is not None:
            return Address(V4, int(parsed.ipv4_mapped))
    return Address(parsed.version, int(parsed))


def parse_network(text: str) -> tuple[Address, Address]:
    """The first and last address of a CIDR network such as ``10.0.0.0/8``.

    >>> [str(a) for a in parse_network("192.0.2.0/24")]
    ['192.0.2.0', '192.0.2.255']
    """
    try:
        network = ipaddress.ip_network(text)
    except ValueError as exc:
        raise InvalidAddressError(f"{text!r} is not a CIDR network ({exc})") from None
    family = network.version
    return Address(family, int(network.network_address)), Address(family, int(network.broadcast_address))


def address_from_packed(raw: bytes) -> Address:
    """The address whose sort key is `raw` (4 or 16 bytes).

    >>> str(address_from_packed(bytes(16)))
    '::'
    """
    family = {4: V4, 16: V6}.get(len(raw))
    if family is None:
        raise ValueError(f"a packed address has 4 or 16 bytes, not {len(raw)}")
    return Address(family, int.from_bytes(raw, "big"))
