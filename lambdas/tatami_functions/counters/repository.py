"""What the counters' three table repositories share: one pooled client, their settings, their 503.

Each table has its repository (`ShardsTable`, `CountersTable`, `IdempotencyTable`), a
`common.repository.TableRepository`, so every SDK error (throttling past the SDK's retries, an
unreachable endpoint, a timeout) becomes a `CounterUnavailableError`, which the API answers with 503
and `Retry-After`. They share one client: the reads fan out up to 10 BatchGetItem calls at once.
"""

from __future__ import annotations

from typing import ClassVar, Self

from tatami_functions.common.clients import API_CALLS, aws_client
from tatami_functions.common.repository import TableRepository
from tatami_functions.counters.exceptions import CounterUnavailableError
from tatami_functions.counters.settings import settings

__all__ = ["CountersRepository"]


class CountersRepository(TableRepository):
    """The base of the counters' repositories; `table_setting` is the CountersSettings field naming the
    table (None in a function deployed without access to it: `settings().require` names it)."""

    unavailable = CounterUnavailableError
    table_setting: ClassVar[str]

    @classmethod
    def _from_env(cls) -> Self:
        # One client for the three tables (the API functions' time budget, a connection per parallel read).
        return cls(settings().require(cls.table_setting), aws_client("dynamodb", API_CALLS))
