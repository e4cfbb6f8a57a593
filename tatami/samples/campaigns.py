"""Sample data of the campaigns service: seed 004's users' profiles (data/models_workshop.json), PUT
through the API."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote

from tatami.samples import workshop_data
from tatami.samples.writing import send_all

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress

EXAMPLES = (quote("/campaigns/candidates?prefecture=千葉県&birth_month=12&order_month=12", safe="/?=&"),)


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    data = workshop_data()["campaign_users"]
    requests = [("PUT", f"/campaigns/users/{x.pop('user_id')}", x) for x in data]
    return f"{send_all(cloud.api_url, requests, progress)} campaign profiles"
