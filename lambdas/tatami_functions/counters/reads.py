"""Reading a counter: the exact sum of its shards, or the stream-maintained roll-up.

`source="shards"` reads the configuration, then every shard 0..n-1 with parallel BatchGetItem
calls (`consistent=True`: strongly consistent reads, twice the RCU). `source="rollup"` reads one
partition (config + roll-up item): cheap for hot counters, but only as fresh as the stream; its
`as_of` is the approximate time of the newest stream record applied to it.
"""

from __future__ import annotations

from tatami_functions.counters.counters_table import CountersTable
from tatami_functions.counters.exceptions import CounterNotFoundError
from tatami_functions.counters.model import Reading
from tatami_functions.counters.shards_table import ShardsTable


def read_counter(name: str, source: str = "shards", consistent: bool = False) -> Reading:
    """The value of counter `name`; CounterNotFoundError when it does not exist.

    >>> read_counter("votes-A").to_json()  # doctest: +SKIP
    {'name': 'votes-A', 'value': 42, 'source': 'shards', 'shards': 150, 'consistent': False}
    """
    if source == "rollup":
        return _from_rollup(name, consistent)
    config = CountersTable.from_environment().get_config(name, consistent)
    if config is None:
        raise CounterNotFoundError(name)
    value = ShardsTable.from_environment().sum_shards(name, config.shards, consistent)
    return Reading(name, value, "shards", config.shards, consistent)


def _from_rollup(name: str, consistent: bool) -> Reading:
    config, entries = CountersTable.from_environment().read_rollup(name, consistent)
    if config is None:
        raise CounterNotFoundError(name)
    value = sum(entry.count for entry in entries.values())
    as_of = max((entry.at for entry in entries.values()), default=None)
    return Reading(name, value, "rollup", config.shards, consistent, as_of)
