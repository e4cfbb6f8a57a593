"""What the counters' three table repositories share: one pooled client, their settings, their 503.

Each table has its repository (`ShardsTable`, `CountersTable`, `IdempotencyTable`), a
`common.repository.TableRepository`, so every SDK error (throttling past the SDK's retries, an
unreachable endpoint, a timeout) becomes a `CounterUnavailableError`, which the API answers with 503
and `Retry-After`. They share one client: the reads fan out up to 10 BatchGetItem calls at once.
"""

from __future__ import annotations

from typing import ClassVar, Self

from tatami_functions.common.clients import ClientConfig, aws_client
from tatami_functions.common.repository import TableRepository
from tatami_functions.counters.exceptions import CounterUnavailableError
from tatami_functions.counters.settings import settings

__all__ = ["CLIENT_CONFIG", "CountersRepository"]

# A pooled connection for each of the read path's parallel calls; standard retries absorb throttling.
# A DynamoDB call answers in milliseconds: a frozen endpoint is given up on after 3 tries of 1 s to
# connect and 2 s to answer (at most ~9 s with backoff), so the caller gets a 503 before the API
# function's 10 s timeout turns it into the gateway's 504.
CLIENT_CONFIG = ClientConfig(
    max_pool_connections=16,
    connect_timeout=1,
    read_timeout=2,
    retries={"mode": "standard", "max_attempts": 3},
)


class CountersRepository(TableRepository):
    """The base of the counters' repositories; `table_setting` is the CountersSettings field naming the
    table (None in a function deployed without access to it: `settings().require` names it)."""

    unavailable = CounterUnavailableError
    table_setting: ClassVar[str]

    @classmethod
    def _from_env(cls) -> Self:
        return cls(settings().require(cls.table_setting), aws_client("dynamodb", CLIENT_CONFIG))
