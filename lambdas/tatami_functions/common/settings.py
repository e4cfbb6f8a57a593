"""A function's settings, declared once and read by both the function and its construct.

A service declares the environment variables its function reads as a `Settings` subclass (a frozen
dataclass) whose fields are `variable(...)`s: the variable's name, how its text becomes the value
(`parse`) and the value text again (`dump`), and the default when it is unset. The function reads it
with `from_env()`; the construct builds the function's `environment` with `environment(...)` from
the same class, so a variable's name is written in one place. A default of None marks a variable
a function may be deployed without (a table it has no access to); `require` names it when code
needs it after all.

>>> class Example(Settings):
...     table: str = variable("EXAMPLE_TABLE")
...     ttl_seconds: float = variable("EXAMPLE_TTL_SECONDS", float, default=30.0)
>>> Example.environment(table="T", ttl_seconds=5)
{'EXAMPLE_TABLE': 'T', 'EXAMPLE_TTL_SECONDS': '5'}
>>> Example.from_env({"EXAMPLE_TABLE": "T"})
Example(table='T', ttl_seconds=30.0)
>>> try:
...     Example.from_env({"EXAMPLE_TTL_SECONDS": "5"})
... except SettingsError as exc:
...     print(exc)
EXAMPLE_TABLE is not set (Example.table: the function's construct sets it)
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self, cast, dataclass_transform

__all__ = ["PowertoolsSettings", "Settings", "SettingsError", "TableSettings", "Variable", "variable"]

_VARIABLE = "tatami.variable"  # the key of a field's Variable in its metadata


class SettingsError(RuntimeError):
    """A variable a function reads is unset or malformed; the message names it."""


@dataclasses.dataclass(frozen=True)
class Variable:
    """An environment variable: its name, text -> value (`parse`) and value -> text (`dump`)."""

    name: str
    parse: Callable[[str], Any] = str
    dump: Callable[[Any], str] = str


def variable(
    name: str,
    parse: Callable[[str], Any] = str,
    *,
    default: Any = dataclasses.MISSING,
    dump: Callable[[Any], str] = str,
) -> Any:
    """A settings field read from the variable `name` (no `default`: the variable is required)."""
    return dataclasses.field(default=default, metadata={_VARIABLE: Variable(name, parse, dump)})


@dataclass_transform(frozen_default=True, field_specifiers=(variable,))
class Settings:
    """The base of a declaration: each subclass becomes a frozen dataclass of `variable` fields.

    `error` is the exception `from_env` raises (a service may keep its own).
    """

    error: ClassVar[type[Exception]] = SettingsError

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclasses.dataclass(frozen=True)(cls)

    @classmethod
    def variables(cls) -> dict[str, Variable]:
        """Field name -> its Variable, in declaration order."""
        return {
            field.name: field.metadata[_VARIABLE]
            for field in dataclasses.fields(cast(Any, cls))
            if _VARIABLE in field.metadata
        }

    @classmethod
    def name_of(cls, field: str) -> str:
        """The variable behind `field`.

        >>> print(PowertoolsSettings.name_of("log_level"))
        LOG_LEVEL
        """
        return cls.variables()[field].name

    @classmethod
    def names(cls, *, optional: bool = True) -> frozenset[str]:
        """The variables' names (without those a function may be deployed without: `optional=False`)."""
        defaults = {field.name: field.default for field in dataclasses.fields(cast(Any, cls))}
        return frozenset(
            v.name for field, v in cls.variables().items() if optional or defaults[field] is not None
        )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Self:
        """The settings in `env` (the process environment by default); an unset or empty variable
        takes its field's default, and is an error naming it when the field has none."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for field in dataclasses.fields(cast(Any, cls)):
            declared: Variable | None = field.metadata.get(_VARIABLE)
            if declared is None:
                continue
            text = env.get(declared.name)
            if not text:
                if field.default is dataclasses.MISSING:
                    where = f"{cls.__name__}.{field.name}"
                    raise cls.error(f"{declared.name} is not set ({where}: the function's construct sets it)")
                continue
            try:
                values[field.name] = declared.parse(text)
            except (TypeError, ValueError) as exc:
                raise cls.error(f"{declared.name}={text!r} is malformed: {exc}") from None
        return cls(**values)

    @classmethod
    def environment(cls, **values: Any) -> dict[str, str]:
        """The variables that give these values (by field name), for the function's `environment`.

        A value given as text is taken as the variable's text (a CDK token, say); None leaves the
        variable out. Every field without a default must be given.
        """
        declared = cls.variables()
        unknown = sorted(set(values) - set(declared))
        if unknown:
            raise TypeError(f"{cls.__name__} declares no {', '.join(unknown)}")
        required = [f.name for f in dataclasses.fields(cast(Any, cls)) if f.default is dataclasses.MISSING]
        missing = [name for name in required if values.get(name) is None]
        if missing:
            raise TypeError(f"{cls.__name__} needs {', '.join(declared[name].name for name in missing)}")
        return {
            declared[name].name: value if isinstance(value, str) else declared[name].dump(value)
            for name, value in ((name, values[name]) for name in declared if name in values)
            if value is not None
        }

    def require(self, field: str) -> Any:
        """The value of `field`; an error naming its variable when this function was deployed without it."""
        value = getattr(self, field)
        if value is None:
            name = self.name_of(field)
            raise self.error(f"{name} is not set: this function has no access to what it names")
        return value


class TableSettings(Settings):
    """A declaration whose `table` names the function's one table (`common.repository` reads it)."""

    table: str


class PowertoolsSettings(Settings):
    """Powertools' own variables (its Logger, Metrics and Tracer read them): every function has them.

    >>> print(*PowertoolsSettings.environment(service="places", metrics_namespace="Tatami"))
    POWERTOOLS_SERVICE_NAME POWERTOOLS_METRICS_NAMESPACE
    """

    service: str = variable("POWERTOOLS_SERVICE_NAME")
    metrics_namespace: str = variable("POWERTOOLS_METRICS_NAMESPACE")
    log_level: str = variable("LOG_LEVEL", default="INFO")
