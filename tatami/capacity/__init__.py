"""The capacity model: would this workload throttle in AWS? DynamoDB's partitions, simulated.

Pure Python, no AWS call, deterministic for a seed. Four groups, each importing only the ones
before it:

- `model`: AWS's documented rules (limits, keys, capacity, partitions, splits, the clock);
- `workloads`: what is sent and how (the clients: a loader's threads, functions' environments; the
  workloads built from keys, counters, reads and mixes, at rates that may change; what each asks);
- `reports`: what a run says (the report, its verdict with each fix's number and cost, what the
  application saw, what it costs, CloudWatch's view, text, CSV and charts);
- `adapters`: this application's workloads (seed 003's loads, the IP loader's plan, the local
  cloud's recorded traffic).

>>> from tatami.capacity import Setting, keys_workload, simulate
>>> report = simulate(keys_workload("one key", [("k", n) for n in range(3000)], Setting()))
>>> report.verdict.kinds, report.verdict.keys
(['hot key'], ['k'])
"""

from tatami.capacity.model.capacity import Capacity
from tatami.capacity.model.limits import Limits
from tatami.capacity.reports.report import Report
from tatami.capacity.reports.run import simulate
from tatami.capacity.workloads.builders import Setting, Workload, counter_workload, keys_workload

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
