"""Where the index lives and what it indexes, read once from the environment the construct sets.

The ZOrderIndex construct (infra/constructs/zorder_index.py) writes the same values into the maintainer's
and the search function's environment, so both compute addresses with one schema.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from zorder import Schema

TABLE_ENV = "ZINDEX_TABLE"
NAME_ENV = "ZINDEX_NAME"
SCHEMA_ENV = "ZINDEX_SCHEMA"
BUCKET_BITS_ENV = "ZINDEX_BUCKET_BITS"
ADDRESS_ENV = "ZINDEX_ADDRESS_ATTRIBUTE"
BUCKET_ENV = "ZINDEX_BUCKET_ATTRIBUTE"
KEY_ENV = "ZINDEX_KEY_ATTRIBUTE"
DOMAIN_ENV = "ZINDEX_DOMAIN"

Bounds = tuple[float | int | None, float | int | None]


@dataclass(frozen=True, slots=True)
class IndexSettings:
    """One Z-order index: its table, GSI name (also the bucket prefix), schema and key attributes.

    >>> from zorder import Fixed
    >>> s = IndexSettings("T", "places-z", Schema.of(a=Fixed(0, 1, 8)), bucket_bits=4)
    >>> s.bucket_name(10)
    'places-z#a'
    """

    table: str
    index: str
    schema: Schema
    bucket_bits: int
    address_attribute: str = "zaddr"
    bucket_attribute: str = "zbucket"
    key_attribute: str = "id"
    # Values resolved per dimension, narrower than the encoding's range; values beyond it take the
    # nearest end's address (see addressing.placement). A population ceiling far below 2**32 keeps the
    # address's top population bits zero, so open population bounds touch no empty address space.
    domain: Mapping[str, Bounds] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0 <= self.bucket_bits <= min(16, self.schema.bits):
            raise ValueError(
                f"bucket_bits must be within 0..{min(16, self.schema.bits)}, got {self.bucket_bits}"
            )

    @property
    def buckets(self) -> int:
        return 1 << self.bucket_bits

    @property
    def bucket_shift(self) -> int:
        """Address bits below the bucket bits."""
        return self.schema.bits - self.bucket_bits

    def bucket_name(self, number: int) -> str:
        """The GSI partition key of bucket ``number``: fixed-width hex, so names sort like numbers."""
        width = max(1, (self.bucket_bits + 3) // 4)
        return f"{self.index}#{number:0{width}x}"

    def bucket_of(self, address: bytes) -> int:
        return int.from_bytes(address) >> self.bucket_shift

    @property
    def statistics_key(self) -> str:
        """The table key of the planner statistics item (ids starting with '__' are reserved)."""
        return f"__zindex__#{self.index}"

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> IndexSettings:
        missing = [name for name in (TABLE_ENV, NAME_ENV, SCHEMA_ENV, BUCKET_BITS_ENV) if not env.get(name)]
        if missing:
            raise RuntimeError(
                f"environment variables {missing} are not set (the ZOrderIndex construct sets them)"
            )
        return cls(
            table=env[TABLE_ENV],
            index=env[NAME_ENV],
            schema=Schema.from_json(env[SCHEMA_ENV]),
            bucket_bits=int(env[BUCKET_BITS_ENV]),
            address_attribute=env.get(ADDRESS_ENV, "zaddr"),
            bucket_attribute=env.get(BUCKET_ENV, "zbucket"),
            key_attribute=env.get(KEY_ENV, "id"),
            domain={k: (lo, hi) for k, (lo, hi) in json.loads(env.get(DOMAIN_ENV) or "{}").items()},
        )

    def to_env(self) -> dict[str, str]:
        """The environment a function needs to rebuild these settings (used by the construct and tests)."""
        return {
            TABLE_ENV: self.table,
            NAME_ENV: self.index,
            SCHEMA_ENV: self.schema.to_json(),
            BUCKET_BITS_ENV: str(self.bucket_bits),
            ADDRESS_ENV: self.address_attribute,
            BUCKET_ENV: self.bucket_attribute,
            KEY_ENV: self.key_attribute,
            DOMAIN_ENV: json.dumps({k: list(v) for k, v in self.domain.items()}, sort_keys=True),
        }


def saturate(value: Any, low: Any, high: Any) -> Any:
    """``value`` moved into a domain ``low..high`` (None: open on that side), as the index stores it.

    >>> saturate(12, 0, 9), saturate(-3, 0, None), saturate(5, None, None)
    (9, 0, 5)
    """
    if low is not None and value < low:
        return low
    if high is not None and value > high:
        return high
    return value


@cache
def settings() -> IndexSettings:
    """This execution environment's index settings (read once, reused across warm invocations)."""
    return IndexSettings.from_env(os.environ)
