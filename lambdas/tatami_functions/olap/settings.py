"""What the export function exports and where: read from its environment (the construct sets it).

The CLI builds the same settings from the stack's outputs, so `tatami export` and the schedule
act alike.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import timedelta
from typing import Any, ClassVar

from tatami_functions.common.settings import Settings, variable
from tatami_functions.olap.exceptions import SettingsError
from tatami_functions.olap.layout import table_prefix

DEFAULT_PREFIX = "exports"
_HOUR = timedelta(hours=1)


def _hours(text: str) -> timedelta:
    return timedelta(hours=float(text))


def _hours_or_none(text: str) -> timedelta | None:
    """0 hours: none (no scheduled incremental exports)."""
    return _hours(text) or None


def _hours_text(interval: timedelta) -> str:
    """
    >>> _hours_text(timedelta(days=1)), _hours_text(timedelta(minutes=90))
    ('24', '1.5')
    """
    hours = interval / _HOUR
    return str(int(hours)) if hours == int(hours) else str(hours)


def _tables(text: str) -> Mapping[str, str]:
    tables: Any = json.loads(text)
    if not isinstance(tables, dict):
        raise ValueError("expected a JSON object of table key -> table ARN")
    return tables


class ExportSettings(Settings):
    """Tables (key -> ARN), the bucket and prefix, the Glue database (empty: nothing to publish to)
    and the schedule's intervals (no incremental interval: no scheduled incremental exports; how
    often it checks).

    >>> ExportSettings({"orders": "arn:aws:dynamodb:r:1:table/T"}, "b").s3_prefix("orders")
    'exports/orders'
    """

    error: ClassVar[type[Exception]] = SettingsError

    tables: Mapping[str, str] = variable("OLAP_TABLES", _tables, dump=json.dumps)
    bucket: str = variable("OLAP_BUCKET_NAME")
    prefix: str = variable("OLAP_PREFIX", default=DEFAULT_PREFIX)
    database: str = variable("OLAP_DATABASE", default="")
    full_every: timedelta = variable(
        "OLAP_FULL_EVERY_HOURS", _hours, default=timedelta(days=1), dump=_hours_text
    )
    incremental_every: timedelta | None = variable(
        "OLAP_INCREMENTAL_EVERY_HOURS", _hours_or_none, default=None, dump=_hours_text
    )
    # How often the schedule runs: a run counts the exports that failed since the run before.
    check_every: timedelta = variable("OLAP_CHECK_EVERY_HOURS", _hours, default=_HOUR, dump=_hours_text)

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
