"""Workloads: what to send, to which key spaces, with which client (the one place callers import them from).

`setting` has where a workload runs and what a workload is; `loads` the bulk loads a key list
describes (a CSV, the IP loader's plan, seed 003's data set), in file order, shuffled or in export
order, with a global secondary index if asked; `streams` the open-loop ones (a sharded counter,
keyed increments as transactions, reads, a mix of writes, reads and transactions at rates that
change over time); `tatami.capacity.adapters.traffic` builds one from the traffic the local cloud
recorded.
"""

from __future__ import annotations

from tatami.capacity.workloads.loads import EXPORT, FILE_ORDER, ORDERS, SHUFFLED, EncodedKeys, keys_workload
from tatami.capacity.workloads.mix import Mix, mix_workload, reads_workload
from tatami.capacity.workloads.schedule import Schedule
from tatami.capacity.workloads.setting import TABLE, Key, Setting, Sharding, Workload
from tatami.capacity.workloads.streams import IDEMPOTENCY, counter_workload

__all__ = [
    "EXPORT",
    "FILE_ORDER",
    "IDEMPOTENCY",
    "ORDERS",
    "SHUFFLED",
    "TABLE",
    "EncodedKeys",
    "Key",
    "Mix",
    "Schedule",
    "Setting",
    "Sharding",
    "Workload",
    "counter_workload",
    "keys_workload",
    "mix_workload",
    "reads_workload",
]
