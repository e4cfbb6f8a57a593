"""What a running local cloud reports about itself: its stream triggers, its engines, its alarms.

The one view each of `tatami local status`, the control endpoint (GET /streams, /engines, /alarms)
and the console read. A part of `LocalCloud` (cloud.py wires the parts; this only reads them).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from tatami.local.events.delivery import MappingStats
from tatami.local.parts import CloudParts


class CloudStatus(CloudParts):
    """The status readings of `LocalCloud`, over the parts it started."""

    def stream_status(self) -> dict[str, dict[str, Any]]:
        """Per stream trigger: its function, what it delivered, and the records still waiting for it."""
        return {
            poller.spec.logical_id: {
                "function": poller.spec.function_id,
                "backlog_records": poller.backlog(),
                **asdict(self.stream_stats.get(poller.spec.logical_id, MappingStats())),
            }
            for poller in self.pollers
        }

    def engine_status(self) -> dict[str, dict[str, Any]]:
        """Per engine: its endpoint, whether its process runs, and how often the watchdog restarted it."""
        restarts = self.watch.restarts if self.watch else {}
        return {
            engine.name: {
                "endpoint": engine.endpoint,
                "running": engine.process is not None and engine.process.poll() is None,
                "restarts": len(restarts.get(engine.name, [])),
            }
            for engine in self.engines
        }

    def alarm_states(self) -> list[dict[str, Any]]:
        """Every alarm of the template with its state now (ALARM first): name, state, reason, since,
        what it watches. The one view of the alarms: `tatami local status`/`alarms`, GET /alarms."""
        return self.alarms.refresh() if self.alarms is not None else []
