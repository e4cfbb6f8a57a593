"""The table a `tatami capacity` command runs on, from its options: a usage error names a bad one.

`--provisioned WCU[:RCU]` or `--warm W[:R]` (on-demand, a new table's otherwise), `--gsi-capacity`
(a global secondary index's own, in the table's mode), `--max-throughput` (on-demand only), `--idle`
and `--limit NAME=VALUE`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import click

from tatami.capacity.model.capacity import ON_DEMAND, Capacity
from tatami.capacity.model.limits import Limits
from tatami.capacity.workloads.builders import Setting

__all__ = ["setting_from", "with_index_and_maximum"]


def setting_from(
    provisioned: str | None, warm: str | None, idle: float, limits: tuple[str, ...], seed: int
) -> Setting:
    """The Setting the table options describe; a bad value is a usage error naming its option."""
    try:
        chosen = Limits.overridden(limits)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--limit") from None
    if provisioned and warm:
        raise click.UsageError(
            "--warm applies to on-demand tables; a provisioned table's throughput is its WCU/RCU"
        )
    if provisioned:
        wcu, rcu = _pair(provisioned, "--provisioned", 1.0)
        return Setting(Capacity.provisioned(wcu, rcu, idle), chosen, seed)
    if warm:
        write, read = _pair(warm, "--warm", None)
        return Setting(Capacity.on_demand(write, read, chosen), chosen, seed)
    return Setting(Capacity.on_demand(limits=chosen), chosen, seed)


def with_index_and_maximum(setting: Setting, gsi_capacity: str | None, maximum: str | None) -> Setting:
    """The setting with a GSI's own capacity and an on-demand maximum, where the options give them."""
    return dataclasses.replace(
        _capped(setting, maximum), index_capacity=_index_capacity(setting, gsi_capacity)
    )


def _capped(setting: Setting, maximum: str | None) -> Setting:
    """The setting with an on-demand maximum throughput, if `--max-throughput` gives one."""
    if not maximum:
        return setting
    if setting.capacity.mode != ON_DEMAND:
        raise click.UsageError(
            "--max-throughput applies to on-demand tables; a provisioned one has its WCU/RCU"
        )
    write, read = _pair(maximum, "--max-throughput", None)
    return dataclasses.replace(setting, capacity=setting.capacity.with_maximum(write, read))


def _index_capacity(setting: Setting, text: str | None) -> Capacity | None:
    """A GSI's own capacity (`--gsi-capacity`), in the table's mode; None: the table's."""
    if not text:
        return None
    if setting.capacity.mode == ON_DEMAND:
        write, read = _pair(text, "--gsi-capacity", None)
        return Capacity.on_demand(write, read, setting.limits)
    wcu, rcu = _pair(text, "--gsi-capacity", 1.0)
    return Capacity.provisioned(wcu, rcu)


def _pair(text: str, option: str, default: float | None) -> tuple[float, Any]:
    first, _, second = text.partition(":")
    try:
        values = float(first), float(second) if second else default
    except ValueError:
        raise click.BadParameter(f"{text!r}: expected numbers as N or N:M", param_hint=option) from None
    if values[0] <= 0 or (values[1] is not None and values[1] <= 0):
        raise click.BadParameter(f"{text!r}: capacity must be positive", param_hint=option)
    return values
