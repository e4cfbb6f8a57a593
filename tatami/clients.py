"""The botocore configurations of the CLI, the local cloud and the benches: one per kind of caller.

They reuse the functions' `ClientConfig` (`tatami_functions.common.clients`, where the functions' own
configurations live), so a CLI client and a function's client are described the same way and a
difference between two of them is a named choice made here:

- `BULK_CALLS`: loaders, samples and scans run many threads: a pooled connection for each, and adaptive
  retries to absorb throttling.
- `UNVALIDATED_BULK_CALLS`: the same without boto3's client-side validation, for callers that build
  every request themselves (the IP loader: `tatami.ip_loader.clients` says what it saves).
- `FAST_FAIL`: a probe of a local process (is DynamoDB Local up yet?): one short attempt, no retries.
- `CONSOLE_CALLS`: a console page waits for its data: a frozen DynamoDB Local is a 503 within seconds
  (two attempts of at most 1 s to connect and 2 s to read: `common.dependencies.worst_case_seconds`),
  not after botocore's default minutes of 60 s reads and retries.

>>> BULK_CALLS.config.max_pool_connections
64
"""

from __future__ import annotations

from tatami_functions.common.clients import API_CALLS, ClientConfig

__all__ = ["BULK_CALLS", "CONSOLE_CALLS", "FAST_FAIL", "UNVALIDATED_BULK_CALLS"]

BULK_CALLS = ClientConfig(max_pool_connections=64, retries={"mode": "adaptive", "max_attempts": 10})
UNVALIDATED_BULK_CALLS = BULK_CALLS.with_options(parameter_validation=False)
FAST_FAIL = ClientConfig(connect_timeout=1, read_timeout=5, retries={"total_max_attempts": 1})
CONSOLE_CALLS = API_CALLS.with_options(retries={"mode": "standard", "total_max_attempts": 2})
