"""The shard formula of seed 004, a counter's configuration and the keys of shard items; pure (no
boto3, no environment).

Seed 004 sizes a write-sharded key for a target write rate: one partition key takes at most 1,000
WCU, so `shards = ceil(target WCU x ceil(item KB) / 1000)` (100K WCU of 1 KB items -> 100). The
seed calls that a minimum: random shard choice is uneven, so it suggests 150-200 for a computed
100. `safety_factor` is that margin.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

__all__ = [
    "MAX_INCREMENT",
    "MAX_SHARDS",
    "NAME_PATTERN",
    "PARTITION_WCU",
    "CounterConfig",
    "parse_shard_key",
    "random_shard",
    "shard_key",
    "shards_needed",
]

PARTITION_WCU = 1000  # DynamoDB's documented write limit per partition key (per second)
MAX_SHARDS = 1000  # a read sums every shard: 1,000 keys are 10 parallel BatchGetItem calls
MAX_INCREMENT = 1_000_000  # |by| per request; keeps any counter far from a Number's 38 digits
# Letters, digits, '_', '.', '-'; never '#', which separates the name from the shard number.
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
_NAME = re.compile(NAME_PATTERN)


@dataclass(frozen=True, slots=True)
class CounterConfig:
    """What is stored with a counter: its shard count and the target it was sized for."""

    name: str
    shards: int
    target_wcu: int
    safety_factor: float

    def __post_init__(self) -> None:
        if self.shards < 1:
            raise ValueError(f"shards {self.shards} must be at least 1 for counter {self.name!r}")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "shards": self.shards,
            "target_wcu": self.target_wcu,
            "safety_factor": self.safety_factor,
        }


def shards_needed(target_wcu: int, item_kb: float = 1.0, safety_factor: float = 1.0) -> int:
    """Shards for `target_wcu` writes of `item_kb` items, times the seed's safety margin.

    Decimal arithmetic: in floats 100 x 1.1 is 110.00000000000001, which would round up to 111.

    >>> shards_needed(100_000)
    100
    >>> shards_needed(100_000, safety_factor=1.5), shards_needed(100_000, safety_factor=2)
    (150, 200)
    >>> shards_needed(3_000, item_kb=1.5)
    6
    """
    if target_wcu < 1:
        raise ValueError(f"target_wcu {target_wcu} must be at least 1")
    if not 0 < item_kb <= 400:
        raise ValueError(f"item_kb {item_kb} must be within (0, 400]: DynamoDB items are at most 400 KB")
    if safety_factor < 1:
        raise ValueError(f"safety_factor {safety_factor} must be at least 1 (the formula gives a minimum)")
    minimum = math.ceil(Decimal(target_wcu) * math.ceil(Decimal(str(item_kb))) / PARTITION_WCU)
    return math.ceil(minimum * Decimal(str(safety_factor)))


def shard_key(name: str, shard: int) -> str:
    """The partition key of shard `shard` of counter `name`.

    >>> shard_key("votes-A", 7)
    'votes-A#7'
    """
    if not _NAME.match(name):
        raise ValueError(f"counter name {name!r} does not match {NAME_PATTERN}")
    if shard < 0:
        raise ValueError(f"shard {shard} must not be negative")
    return f"{name}#{shard}"


def parse_shard_key(key: str) -> tuple[str, int]:
    """The counter name and shard number of a shard's partition key.

    >>> parse_shard_key("votes-A#7")
    ('votes-A', 7)
    """
    name, separator, number = key.rpartition("#")
    if not separator or not number.isdigit() or not _NAME.match(name):
        raise ValueError(f"{key!r} is not a shard key '<name>#<n>'")
    return name, int(number)


def random_shard(config: CounterConfig) -> int:
    """The shard an increment goes to: uniformly random, as the seed's formula assumes writes spread
    evenly over the shards.

    >>> 0 <= random_shard(CounterConfig("votes-A", 150, 100_000, 1.5)) < 150
    True
    """
    return random.randrange(config.shards)
