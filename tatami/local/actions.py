"""What a caller does to a running local cloud: fire a scheduled rule now, arm or disarm injected
faults, hold a stream trigger. `tatami local fire`/`faults` (through the control endpoint) and the
tests use them. A part of `LocalCloud` (cloud.py wires the parts; these act on them).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tatami.local.events.rules import find_rule, scheduled_event
from tatami.local.parts import CloudParts

if TYPE_CHECKING:
    from tatami.local.engines.faults import FaultPlan
    from tatami.local.functions.pool import Invocation


class CloudActions(CloudParts):
    """The actions of `LocalCloud` on the parts it started."""

    @contextlib.contextmanager
    def stalled_trigger(self, function_id: str) -> Iterator[None]:
        """The stream trigger of `function_id` delivers nothing inside the block (a stalled consumer)."""
        (poller,) = [poller for poller in self.pollers if poller.spec.function_id == function_id]
        poller.hold()
        try:
            yield
        finally:
            poller.release()

    def inject_faults(self, plan: FaultPlan | None) -> None:
        """Arm `plan` in every function watching the cloud's fault switch (None: disarm)."""
        if self.config.fault_switch is None:
            raise ValueError("this local cloud was started without a fault switch")
        if plan is None:
            self.config.fault_switch.unlink(missing_ok=True)
        else:
            self.config.fault_switch.write_text(plan.to_json())

    def fire_rule(self, name: str) -> list[Invocation]:
        """Invoke every target of a scheduled rule now, with its Input or the scheduled event."""
        rule = find_rule(self.assembly.rules, name)
        event = scheduled_event(self.resolver.get_att(rule.logical_id, "Arn"))
        return [
            self.invoke(function_id, json.loads(self.resolver.resolve(payload)) if payload else event)
            for function_id, payload in rule.targets
        ]
