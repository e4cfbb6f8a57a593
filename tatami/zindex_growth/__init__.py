"""The Z-index engine measured as data grows, from 10^5 to 10^8 items, on the in-memory model of DynamoDB
(:mod:`tatami.dynamodb_model`).

``cities`` (cities500, the seed of every size) -> ``generator`` (places at any size, and their density in
closed form) -> ``keys`` (the maintainer's index keys, for every row at once) -> ``table`` (the places
in the model) -> ``statistics`` (what ``analyze`` builds, and what refreshing it costs) -> ``workload``
(boxes that keep their expected result counts) -> ``measure`` (a search against brute force and against
every other candidate) -> ``writes`` (what a write costs) -> ``point`` (one size end to end). The
program that runs every size and prints the curves is ``bench/zindex_growth.py``.
"""
