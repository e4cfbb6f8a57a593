"""What the export function exports and where: read from its environment (the construct sets it).

The CLI builds the same settings from the stack's outputs, so `tatami export` and the schedule
act alike.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import timedelta

from tatami_functions.olap.exceptions import SettingsError
from tatami_functions.olap.layout import table_prefix

TABLES_ENV = "OLAP_TABLES"  # JSON: table key -> table ARN
BUCKET_ENV = "OLAP_BUCKET"
PREFIX_ENV = "OLAP_PREFIX"
DATABASE_ENV = "OLAP_DATABASE"  # Glue database; empty: nothing to publish to
FULL_EVERY_ENV = "OLAP_FULL_EVERY_HOURS"
INCREMENTAL_EVERY_ENV = "OLAP_INCREMENTAL_EVERY_HOURS"  # 0: no scheduled incremental exports
DEFAULT_PREFIX = "exports"


@dataclass(frozen=True)
class ExportSettings:
    """Tables (key -> ARN), the bucket and prefix, the Glue database and the schedule's intervals.

    >>> ExportSettings({"orders": "arn:aws:dynamodb:r:1:table/T"}, "b").s3_prefix("orders")
    'exports/orders'
    """

    tables: Mapping[str, str]
    bucket: str
    prefix: str = DEFAULT_PREFIX
    database: str = ""
    full_every: timedelta = timedelta(days=1)
    incremental_every: timedelta | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ExportSettings:
        env = os.environ if env is None else env
        try:
            incremental = float(env.get(INCREMENTAL_EVERY_ENV) or 0)
            return cls(
                tables=json.loads(env[TABLES_ENV]),
                bucket=env[BUCKET_ENV],
                prefix=env.get(PREFIX_ENV) or DEFAULT_PREFIX,
                database=env.get(DATABASE_ENV, ""),
                full_every=timedelta(hours=float(env.get(FULL_EVERY_ENV) or 24)),
                incremental_every=timedelta(hours=incremental) if incremental else None,
            )
        except (KeyError, ValueError) as exc:
            raise SettingsError(f"the export's settings are incomplete or malformed: {exc}") from None

    def s3_prefix(self, key: str) -> str:
        return table_prefix(self.prefix, key)

    def select(self, keys: Iterable[str] | None) -> ExportSettings:
        """These settings narrowed to `keys` (None or empty: every table); unknown keys are an error."""
        wanted = list(keys or [])
        if not wanted:
            return self
        unknown = [key for key in wanted if key not in self.tables]
        if unknown:
            raise SettingsError(f"no exported table {unknown}; there are: {', '.join(self.tables)}")
        return replace(self, tables={key: self.tables[key] for key in wanted})
