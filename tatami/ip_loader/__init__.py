"""The IP ranges loader behind `tatami load-ip` and the local cloud's sample data.

source (CSV -> validated rows) -> plan (pieces: split at partition boundaries, gaps filled, shuffled
chunks) -> store (versioned writes, manifest, verification, alias switch, clean-up) -> load (the
orchestration and its summary). Keys come from `tatami_functions.ip_lookup.keys`, the code the
lookup function runs.
"""
