"""The capacity model: would this workload throttle in AWS? DynamoDB's partitions, simulated.

Pure Python, no AWS call, deterministic for a seed. Layers, bottom up: `limits` (AWS's documented
constants and their sources) -> `keys` (positions in a key space) -> `capacity` (a table's
throughput and allowances) -> `partition`, `split`, `space` (partitions and their splits) ->
`engine` and `clients` (the clock and who sends what) -> `workloads`, `traffic`, `accesses`,
`seed003`, `ip_plan` (what to send) -> `report` (with its verdict), `measure`, `render`, `insights` (what
happened, as text, CSV, a chart, or as CloudWatch would have shown it).

>>> from tatami.capacity import Setting, keys_workload, simulate
>>> report = simulate(keys_workload("one key", [("k", n) for n in range(3000)], Setting()))
>>> report.verdict.split(";")[0]
'throttles: key k takes 100% of writes on 1 partition (table/P3 throttled for 2 s)'
"""

from tatami.capacity.capacity import Capacity
from tatami.capacity.limits import Limits
from tatami.capacity.report import Report, simulate
from tatami.capacity.workloads import Setting, Workload, counter_workload, keys_workload

__all__ = [
    "Capacity",
    "Limits",
    "Report",
    "Setting",
    "Workload",
    "counter_workload",
    "keys_workload",
    "simulate",
]
