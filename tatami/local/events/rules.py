"""Scheduled rules fired on demand: which rule a name means, and the event EventBridge would send."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from tatami.local.template.assembly import RuleSpec
from tatami.local.template.intrinsics import LOCAL_ACCOUNT, LOCAL_REGION


def find_rule(rules: list[RuleSpec], name: str) -> RuleSpec:
    """The rule named by its construct path (or the path's end), logical id, local name, or a
    unique logical-id prefix; KeyError listing the rules otherwise.

    >>> rule = RuleSpec("EveryHourA1B2", "S-EveryHourA1B2", "S/EveryHour", "rate(1 hour)", ())
    >>> find_rule([rule], "EveryHour").logical_id
    'EveryHourA1B2'
    """
    exact = [
        r
        for r in rules
        if name in (r.logical_id, r.name, r.construct_path) or r.construct_path.endswith(f"/{name}")
    ]
    candidates = exact or [r for r in rules if r.logical_id.startswith(name)]
    if len(candidates) != 1:
        known = ", ".join(r.construct_path or r.logical_id for r in rules) or "none"
        verdict = "no" if not candidates else "more than one"
        raise KeyError(f"{verdict} rule matches {name!r}; the template has: {known}")
    return candidates[0]


def scheduled_event(rule_arn: str) -> dict[str, Any]:
    """The event a schedule rule delivers to its targets (when the target sets no Input)."""
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": LOCAL_ACCOUNT,
        "time": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": LOCAL_REGION,
        "resources": [rule_arn],
        "detail": {},
    }
