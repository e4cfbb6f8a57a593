"""Sample data of the devices service: seed 004's device logs (data/models_workshop.json), the recent
ones dated relative to now, POSTed through the API as a device would."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from tatami.samples import workshop_data
from tatami.samples.writing import Request, send_all

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress

EXAMPLES = (
    "/devices/12345/logs?level=WARNING",
    "/operators/MAX/logs?from=2020-02-02T00:00:00.000Z&to=2020-02-02T00:00:10.000Z",
    "/escalations",
    "/logs/recent?hours=4",
)


def requests_for(data: dict[str, Any], now: datetime) -> Iterator[Request]:
    """The logs' POSTs in order (recent logs dated relative to `now`).

    >>> [r[:2] for r in requests_for(workshop_data(), datetime(2021, 8, 1, tzinfo=UTC))][:1]
    [('POST', '/devices/12345/logs')]
    """
    for log in data["device_logs"]:
        yield "POST", f"/devices/{log.pop('device_id')}/logs", log
    for log in data["recent_logs"]["logs"]:
        created = now - timedelta(minutes=log.pop("minutes_ago"))
        yield "POST", f"/devices/{log.pop('device_id')}/logs", {**log, "created_at": created.isoformat()}


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    sent = send_all(cloud.api_url, list(requests_for(workshop_data(), datetime.now(UTC))), progress)
    return f"{sent} device logs"
