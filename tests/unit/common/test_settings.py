"""tatami_functions.common.settings: one declaration read by the function (`from_env`) and written by
its construct (`environment`); a missing or malformed variable is an error naming it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tatami_functions.common.settings import Settings, SettingsError, variable
from tatami_functions.counters.settings import CountersSettings
from tatami_functions.ip_lookup.settings import LookupSettings
from tatami_functions.olap.exceptions import SettingsError as OlapSettingsError
from tatami_functions.olap.settings import ExportSettings


class Example(Settings):
    table: str = variable("EXAMPLE_TABLE")
    limit: int = variable("EXAMPLE_LIMIT", int, default=25)
    queue: str | None = variable("EXAMPLE_QUEUE", default=None)


def test_what_the_construct_writes_the_function_reads_back() -> None:
    environment = Example.environment(table="T", limit=5, queue="Q")
    assert environment == {"EXAMPLE_TABLE": "T", "EXAMPLE_LIMIT": "5", "EXAMPLE_QUEUE": "Q"}
    assert Example.from_env(environment) == Example(table="T", limit=5, queue="Q")


def test_unset_variables_take_their_defaults() -> None:
    assert Example.from_env({"EXAMPLE_TABLE": "T", "EXAMPLE_LIMIT": ""}) == Example(table="T")


@pytest.mark.parametrize(
    ("declaration", "env", "message"),
    [
        (Example, {}, r"^EXAMPLE_TABLE is not set \(Example\.table: the function's construct sets it\)$"),
        (Example, {"EXAMPLE_TABLE": ""}, r"^EXAMPLE_TABLE is not set"),
        (LookupSettings, {"IP_LOOKUP_ALIAS_TTL_SECONDS": "30"}, r"^IP_RANGES_TABLE_NAME is not set"),
        (Example, {"EXAMPLE_TABLE": "T", "EXAMPLE_LIMIT": "many"}, r"^EXAMPLE_LIMIT='many' is malformed"),
    ],
    ids=["missing", "empty", "a service's", "malformed"],
)
def test_a_missing_or_malformed_variable_is_an_error_naming_it(
    declaration: type[Settings], env: dict[str, str], message: str
) -> None:
    with pytest.raises(SettingsError, match=message):
        declaration.from_env(env)


def test_a_service_keeps_its_own_error() -> None:
    with pytest.raises(OlapSettingsError, match=r"^OLAP_TABLES is not set"):
        ExportSettings.from_env({"OLAP_BUCKET_NAME": "b"})
    with pytest.raises(OlapSettingsError, match=r"^OLAP_TABLES='\[\]' is malformed"):
        ExportSettings.from_env({"OLAP_TABLES": "[]", "OLAP_BUCKET_NAME": "b"})


def test_a_table_the_function_was_deployed_without_is_named_when_used() -> None:
    settings = CountersSettings.from_env({"COUNTERS_TABLE_NAME": "counters"})
    assert settings.require("counters_table") == "counters"
    with pytest.raises(SettingsError, match=r"^COUNTER_IDEMPOTENCY_TABLE_NAME is not set: this function has"):
        settings.require("idempotency_table")


def test_the_environment_is_built_from_declared_fields_only() -> None:
    with pytest.raises(TypeError, match="Example declares no tabel"):
        Example.environment(tabel="T")
    with pytest.raises(TypeError, match="Example needs EXAMPLE_TABLE"):
        Example.environment(limit=5)
    assert Example.environment(table="T", queue=None) == {"EXAMPLE_TABLE": "T"}  # None: left out


def test_text_passes_through_and_values_are_dumped_as_declared() -> None:
    token = "${Token[TOKEN.42]}"  # a CDK token: already the variable's text
    environment = ExportSettings.environment(
        tables=token, bucket="b", full_every=timedelta(days=1), incremental_every=timedelta(minutes=90)
    )
    assert environment["OLAP_TABLES"] == token
    hours = environment["OLAP_FULL_EVERY_HOURS"], environment["OLAP_INCREMENTAL_EVERY_HOURS"]
    assert hours == ("24", "1.5")
    read = ExportSettings.from_env({**environment, "OLAP_TABLES": '{"orders": "arn"}'})
    assert (read.full_every, read.incremental_every) == (timedelta(days=1), timedelta(minutes=90))
    none = ExportSettings.from_env({**environment, "OLAP_TABLES": "{}", "OLAP_INCREMENTAL_EVERY_HOURS": "0"})
    assert none.incremental_every is None  # 0 hours: no scheduled incremental exports
    assert Example.names() == {"EXAMPLE_TABLE", "EXAMPLE_LIMIT", "EXAMPLE_QUEUE"}
    assert Example.names(optional=False) == {"EXAMPLE_TABLE", "EXAMPLE_LIMIT"}
