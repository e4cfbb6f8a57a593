"""Where a workload runs (`Setting`) and what a workload is (`Workload`): its key spaces, its client,
its keys' labels, what it asks of each table without retries (`Demand`), and, for a bulk load, the
shape of its order (`order.LoadShape`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.choices import Choices
from tatami.capacity.model.limits import Limits
from tatami.capacity.model.space import KeySpace
from tatami.capacity.workloads.clients import Caller
from tatami.capacity.workloads.demand import Demand
from tatami.capacity.workloads.order import LoadShape
from tatami.capacity.workloads.sdk import ClientConfig, SdkClient

__all__ = ["TABLE", "Key", "Setting", "Sharding", "Workload"]

TABLE = "table"  # the key space's name in workloads of one table
Key = tuple[str, object]  # (partition key, sort key or None)


@dataclass(frozen=True)
class Sharding:
    """A write-sharded key: `shards` keys share `rate` requests a second (a counter's)."""

    name: str
    shards: int
    rate: float


@dataclass
class Workload:
    name: str
    spaces: list[KeySpace]
    client: Caller
    labels: dict[tuple[str, int], str] = field(default_factory=dict)  # (space, key hash) -> key
    offered: dict[tuple[str, int], float] = field(default_factory=dict)  # units offered per key
    items: int = 0  # the requests it sends (before retries)
    sharding: Sharding | None = None
    demand: Demand = field(default_factory=Demand)  # units asked per second, without retries
    shape: LoadShape | None = None  # a bulk load: how its order falls on the partitions
    item_bytes: float = 0.0  # the mean size of the items it writes or reads (smaller-items fixes)
    consistent: bool = False  # its reads are strongly consistent (the eventually-consistent fix)

    def label(self, space: str, hashed: int) -> str:
        return self.labels.get((space, hashed), f"#{hashed:016x}")


@dataclass(frozen=True)
class Setting:
    """Where a workload runs: the table's capacity, the limits, the open choices, the hash seed.

    `lsi`: the table has a local secondary index. `client`: how the application calls DynamoDB.
    `index_capacity`: a global secondary index's own capacity (None: the table's, as CloudFormation
    and the console start it).
    """

    capacity: Capacity = field(default_factory=Capacity.on_demand)
    limits: Limits = field(default_factory=Limits)
    seed: int = 0
    choices: Choices = field(default_factory=Choices)
    lsi: bool = False
    client: ClientConfig = field(default_factory=ClientConfig)
    index_capacity: Capacity | None = None

    def space(
        self, name: str, lsi: bool | None = None, index: bool = False, secondary: bool = False
    ) -> KeySpace:
        """A new table (or, `index`, a global secondary index) with this setting's capacity and choices.

        `secondary`: a table whose requests are counted with another's (a transaction's other table).
        """
        has_lsi = (self.lsi if lsi is None else lsi) and not index
        capacity = (self.index_capacity or self.capacity) if index else self.capacity
        space = KeySpace(name, capacity, self.limits, self.seed, self.choices, has_lsi, index)
        space.secondary = secondary or index
        return space

    def sdk(self) -> SdkClient:
        return SdkClient(self.client, self.seed)
