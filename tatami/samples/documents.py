"""Sample data of the documents service: seed 004's users' reports (data/models_workshop.json), PUT
through the API; the large ones get an incompressible body, so they are stored in S3 as the seed's
large items are."""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from tatami.samples import workshop_data
from tatami.samples.writing import Request, send_all

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress

EXAMPLES = ("/users/MAX/documents?status=COMPLETED",)


def requests_for(documents: dict[str, Any]) -> Iterator[Request]:
    for user_id, reports in documents.items():
        if user_id.startswith("_"):  # a comment in the data file
            continue
        for report in reports:
            if "body_kb" in report:
                raw = random.Random(report["report_id"]).randbytes(report.pop("body_kb") * 768)
                report["document"] = base64.b64encode(raw).decode()
            yield "PUT", f"/users/{user_id}/documents/{report.pop('report_id')}", report


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    sent = send_all(cloud.api_url, list(requests_for(workshop_data()["documents"])), progress)
    return f"{sent} documents"
