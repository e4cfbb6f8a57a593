"""The ranges table's layout: key names, partition keys and item shapes (pure; the loader shares it).

Items, as low-level attribute values:

- a *piece* (a CSV range, or a gap, cut at partition boundaries): pk ``v<version>#<family>#<prefix>``
  (e.g. ``v3#4#8.0.0.0/8``, ``v3#6#2001:200::/24``), sk = the piece's first address packed
  big-endian, ``last`` = the piece's last address packed, ``start``/``end`` = the CSV range as text
  (the whole range, not the piece), ``data`` = the metadata columns, ``gap`` = true on synthetic
  "no data" pieces, ``origin`` = the CSV file and line it came from.
- the *alias* (pk ``alias#current``): the live version and its prefix lengths and counts.
- the *version counter* (pk ``meta#versions``) and *load manifests* (pk ``load#<id>``), loader-only.

Partition keys carry the version, so a load writes a complete new dataset beside the live one and
one conditional write of the alias switches every reader at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tatami_functions.ip_lookup.addresses import BITS, V4, Address, Prefix, address_from_packed, prefix_of
from tatami_functions.ip_lookup.table import RANGES

PK, SK = RANGES.key_names
SINGLETON_SK = b"\x00"  # the sort key of items that are alone in their partition
ALIAS_PK = "alias#current"
COUNTER_PK = "meta#versions"
MANIFEST_PREFIX = "load#"
IPV4_PREFIX = 8  # the seed's /8: the first octet
IPV6_PREFIX = 24  # chosen from the data's distribution (README "IP lookup", DESIGN.md)


@dataclass(frozen=True, slots=True)
class Pointer:
    """Which dataset version is live and how its partitions are cut."""

    version: int
    ipv4_prefix: int = IPV4_PREFIX
    ipv6_prefix: int = IPV6_PREFIX

    def partition_key(self, address: Address) -> str:
        """The partition that holds `address` in this version.

        >>> Pointer(3).partition_key(Address(4, 0x08080808))
        'v3#4#8.0.0.0/8'
        """
        length = self.ipv4_prefix if address.family == V4 else self.ipv6_prefix
        return partition_key(self.version, prefix_of(address, length))


@lru_cache(maxsize=1 << 16)  # a load formats each partition's key once, not once per item
def partition_key(version: int, prefix: Prefix) -> str:
    return f"v{version}#{prefix.family}#{prefix}"


def version_of(pk: str) -> int | None:
    """The version a data partition key belongs to; None for the alias, counter and manifests.

    >>> version_of("v12#6#2001:200::/24"), version_of("alias#current")
    (12, None)
    """
    head = pk.split("#", 1)[0]
    return int(head[1:]) if head[:1] == "v" and head[1:].isdigit() else None


@dataclass(frozen=True, slots=True)
class Piece:
    """One item: the part of a range (or gap) inside one partition."""

    prefix: Prefix
    first: int  # the piece's first and last address, as integers of the prefix's family
    last: int
    start: str  # the range's (or gap's) own bounds as text, reported to callers
    end: str
    data: Mapping[str, str] | None  # None marks a gap
    origin: str = ""  # "file.csv:12", or "gap"

    def item(self, version: int) -> dict[str, Any]:
        """The piece as DynamoDB attribute values for `version`."""
        size = BITS[self.prefix.family] // 8
        item: dict[str, Any] = {
            PK: {"S": partition_key(version, self.prefix)},
            SK: {"B": self.first.to_bytes(size, "big")},
            "last": {"B": self.last.to_bytes(size, "big")},
            "start": {"S": self.start},
            "end": {"S": self.end},
            "origin": {"S": self.origin},
        }
        if self.data is None:
            item["gap"] = {"BOOL": True}
        else:
            item["data"] = {"M": {k: {"S": v} for k, v in self.data.items()}}
        return item


@dataclass(frozen=True, slots=True)
class Found:
    """The item a lookup found: the covering range, or a gap when `data` is None."""

    start: str
    end: str
    last: Address
    data: dict[str, str] | None

    def covers(self, address: Address) -> bool:
        return self.last.family == address.family and address.value <= self.last.value


def found_from_item(item: Mapping[str, Any]) -> Found:
    data = None if item.get("gap", {}).get("BOOL") else item.get("data", {}).get("M", {})
    return Found(
        start=item["start"]["S"],
        end=item["end"]["S"],
        last=address_from_packed(bytes(item["last"]["B"])),
        data=None if data is None else {k: v["S"] for k, v in data.items()},
    )


def singleton_key(pk: str) -> dict[str, Any]:
    return {PK: {"S": pk}, SK: {"B": SINGLETON_SK}}


def pointer_from_item(item: Mapping[str, Any]) -> Pointer:
    return Pointer(
        version=int(item["version"]["N"]),
        ipv4_prefix=int(item["ipv4_prefix"]["N"]),
        ipv6_prefix=int(item["ipv6_prefix"]["N"]),
    )
