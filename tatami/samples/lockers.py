"""Sample data of the lockers service: seed 004's lockers (data/models_workshop.json), PUT through
the API."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote

from tatami.samples import workshop_data
from tatami.samples.writing import send_all

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress

EXAMPLES = (quote("/lockers?state=東京都&location=千代田区#紀尾井町", safe="/?=&"),)


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    requests = [("PUT", f"/lockers/{x.pop('locker_id')}", x) for x in workshop_data()["lockers"]]
    return f"{send_all(cloud.api_url, requests, progress)} lockers"
