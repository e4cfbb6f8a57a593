"""IAM's evaluation logic for one request against a function's compiled policies (standard library only).

This module runs inside Lambda workers, whose import path holds only what the Lambda runtime has,
so it imports nothing but the standard library. The logic is AWS's for a principal and a resource
in the same account: an explicit Deny in any applicable policy wins; otherwise an Allow in the
identity-based policies or in the resource's policy (naming this principal) allows; otherwise the
request is implicitly denied.

A compiled policy (see `policies.py`) is JSON:
``{"principal": role ARN, "identity": [statement...], "resources": {resource ARN: [statement...]}}``
where each statement has ``effect``, ``actions``/``not_actions`` (lower case), ``resources``/
``not_resources``, ``conditions`` and, for resource policies, ``principals`` (``["*"]`` or ARNs).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

Statement = Mapping[str, Any]
Context = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Decision:
    """`allowed`, and in AWS's words why not: 'explicit deny in a resource-based policy', ..."""

    allowed: bool
    reason: str


@cache
def _pattern(wildcard: str, ignore_case: bool) -> re.Pattern[str]:
    """IAM wildcards: `*` any run of characters (across `/` and `:`), `?` one character."""
    body = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in wildcard)
    return re.compile(body, re.IGNORECASE | re.DOTALL if ignore_case else re.DOTALL)


def matches(wildcard: str, value: str, *, ignore_case: bool = False) -> bool:
    """Whether `value` matches the IAM wildcard pattern.

    >>> matches("arn:aws:s3:::b/documents/*", "arn:aws:s3:::b/documents/u/1.json")
    True
    >>> matches("dynamodb:Get*", "dynamodb:getitem", ignore_case=True)
    True
    """
    return _pattern(wildcard, ignore_case).fullmatch(value) is not None


def _any(patterns: Iterable[str], value: str, ignore_case: bool = False) -> bool:
    return any(matches(p, value, ignore_case=ignore_case) for p in patterns)


def _applies(
    statement: Statement, action: str, resource: str, principal: str | None, context: Context
) -> bool:
    if "actions" in statement and not _any(statement["actions"], action, ignore_case=True):
        return False
    if "not_actions" in statement and _any(statement["not_actions"], action, ignore_case=True):
        return False
    if "resources" in statement and not _any(statement["resources"], resource):
        return False
    if "not_resources" in statement and _any(statement["not_resources"], resource):
        return False
    principals = statement.get("principals")
    if principals is not None and principal is not None and not {"*", principal} & set(principals):
        return False
    return conditions_hold(statement.get("conditions") or {}, context)


def evaluate(policy: Mapping[str, Any], action: str, resource: str, context: Context) -> Decision:
    """The decision for `action` on `resource`, with `context` holding the request's condition keys.

    >>> allow = {"effect": "Allow", "actions": ["dynamodb:query"], "resources": ["arn:t/x"]}
    >>> evaluate({"principal": "r", "identity": [allow], "resources": {}}, "dynamodb:Query", "arn:t/x", {})
    Decision(allowed=True, reason='allowed by an identity-based policy')
    """
    principal = str(policy.get("principal", ""))
    identity = [s for s in policy.get("identity", []) if _applies(s, action, resource, None, context)]
    on_resource = [
        s
        for arn, statements in policy.get("resources", {}).items()
        if resource == arn or resource.startswith(arn + "/")
        for s in statements
        if _applies(s, action, resource, principal, context)
    ]
    if any(s["effect"] == "Deny" for s in on_resource):
        return Decision(False, "with an explicit deny in a resource-based policy")
    if any(s["effect"] == "Deny" for s in identity):
        return Decision(False, "with an explicit deny in an identity-based policy")
    if any(s["effect"] == "Allow" for s in identity):
        return Decision(True, "allowed by an identity-based policy")
    if any(s["effect"] == "Allow" for s in on_resource):
        return Decision(True, "allowed by a resource-based policy")
    return Decision(False, f"because no identity-based policy allows the {action} action")


# -- conditions --------------------------------------------------------------------------------------
def conditions_hold(conditions: Mapping[str, Mapping[str, Any]], context: Context) -> bool:
    """Every operator block holds (AND); within a block every key holds; a key holds if any value does.

    >>> conditions_hold({"Bool": {"aws:SecureTransport": "false"}}, {"aws:securetransport": "true"})
    False
    """
    return all(
        _key_holds(operator, key, values, context)
        for operator, block in conditions.items()
        for key, values in block.items()
    )


def _key_holds(operator: str, key: str, expected: Any, context: Context) -> bool:
    wanted = [str(v).lower() if isinstance(v, bool) else str(v) for v in _listed(expected)]
    present = key.lower() in context
    base, if_exists = operator.removesuffix("IfExists"), operator.endswith("IfExists")
    set_operator, _, base = base.rpartition(":")
    if base == "Null":
        return (not present) == (wanted[0].lower() == "true")
    if not present:
        return if_exists or "Not" in base
    actual = [str(v) for v in _listed(context[key.lower()])]
    compare = _OPERATORS.get(base)
    if compare is None:
        raise ValueError(f"condition operator {operator!r} is not supported by the local IAM evaluator")
    results = [any(compare(value, pattern) for pattern in wanted) for value in actual]
    hit = all(results) if set_operator == "ForAllValues" else any(results)
    return not hit if "Not" in base else hit


def _listed(value: Any) -> Sequence[Any]:
    return value if isinstance(value, list) else [value]


def _number(value: str) -> float:
    return float(value)


_OPERATORS: dict[str, Callable[[str, str], bool]] = {
    "StringEquals": lambda v, p: v == p,
    "StringNotEquals": lambda v, p: v == p,
    "StringEqualsIgnoreCase": lambda v, p: v.lower() == p.lower(),
    "StringNotEqualsIgnoreCase": lambda v, p: v.lower() == p.lower(),
    "StringLike": lambda v, p: matches(p, v),
    "StringNotLike": lambda v, p: matches(p, v),
    "ArnEquals": lambda v, p: matches(p, v),
    "ArnLike": lambda v, p: matches(p, v),
    "ArnNotEquals": lambda v, p: matches(p, v),
    "ArnNotLike": lambda v, p: matches(p, v),
    "Bool": lambda v, p: v.lower() == p.lower(),
    "NumericEquals": lambda v, p: _number(v) == _number(p),
    "NumericNotEquals": lambda v, p: _number(v) == _number(p),
    "NumericLessThan": lambda v, p: _number(v) < _number(p),
    "NumericLessThanEquals": lambda v, p: _number(v) <= _number(p),
    "NumericGreaterThan": lambda v, p: _number(v) > _number(p),
    "NumericGreaterThanEquals": lambda v, p: _number(v) >= _number(p),
}
