"""Lambda event filtering (FilterCriteria) for stream records.

A pattern is a JSON object whose leaves are lists of rules: literal values, or objects with one of
`prefix`, `suffix`, `anything-but`, `exists`, `numeric`, `equals-ignore-case`. A record matches when
every key of the pattern matches; a record matches the criteria when any pattern matches.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from typing import Any

_MISSING = object()
_NUMERIC = {"=": operator.eq, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def matches_any(record: Mapping[str, Any], patterns: Iterable[Mapping[str, Any]]) -> bool:
    """True when there are no patterns or at least one matches.

    >>> matches_any({"eventName": "INSERT"}, [{"eventName": ["INSERT", "MODIFY"]}])
    True
    """
    patterns = list(patterns)
    return not patterns or any(matches(record, pattern) for pattern in patterns)


def matches(value: Any, pattern: Mapping[str, Any]) -> bool:
    for key, expected in pattern.items():
        actual = value.get(key, _MISSING) if isinstance(value, Mapping) else _MISSING
        if isinstance(expected, Mapping):
            if actual is _MISSING or not matches(actual, expected):
                return False
        elif not any(_rule_matches(actual, rule) for rule in expected):
            return False
    return True


def _rule_matches(actual: Any, rule: Any) -> bool:
    if isinstance(rule, Mapping):
        ((kind, argument),) = rule.items()
        if kind == "exists":
            return (actual is not _MISSING) == bool(argument)
        if actual is _MISSING:
            return bool(kind == "anything-but")
        values = actual if isinstance(actual, list) else [actual]
        return any(_operator_matches(kind, argument, value) for value in values)
    if actual is _MISSING:
        return False
    values = actual if isinstance(actual, list) else [actual]
    return bool(rule in values)


def _operator_matches(kind: str, argument: Any, value: Any) -> bool:
    if kind == "prefix":
        return isinstance(value, str) and value.startswith(argument)
    if kind == "suffix":
        return isinstance(value, str) and value.endswith(argument)
    if kind == "equals-ignore-case":
        return isinstance(value, str) and value.lower() == str(argument).lower()
    if kind == "anything-but":
        excluded = argument if isinstance(argument, list) else [argument]
        return value not in excluded
    if kind == "numeric":
        return _numeric_matches(argument, value)
    raise ValueError(f"filter rule {kind!r} is not supported by the local cloud")


def _numeric_matches(conditions: list[Any], value: Any) -> bool:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return False
    pairs = zip(conditions[::2], conditions[1::2], strict=True)
    return all(_NUMERIC[op](number, float(bound)) for op, bound in pairs)
