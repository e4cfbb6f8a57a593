"""The pure partition model: AWS's documented limits, key spaces, partitions, splits, and the clock.

Bottom up: `limits` (every constant with its source) -> `keys` and `items` (positions and unit
costs) -> `capacity` (a table's throughput and its allowances) -> `partition`, `split`, `space`
(partitions and their splits) -> `engine` (the clock and the admission of requests). Nothing here
knows who sends the requests (`tatami.capacity.workloads`) or how a run is told (`reports`).
"""
