"""Routes of the IP lookup service: `GET /ip/{address}` and `POST /ip/lookups` (up to 100 addresses).

Every answer carries the dataset version it came from (header `X-Ip-Dataset-Version`, and `version`
in the batch body); one request never mixes versions.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.event_handler import Response, content_types

from tatami_functions.common.api import create_resolver
from tatami_functions.ip_lookup import service
from tatami_functions.ip_lookup.schemas import IpAddress, LookupRequest

VERSION_HEADER = "X-Ip-Dataset-Version"

app = create_resolver("IP lookup")


@app.get(
    "/ip/<address>",
    summary="The range that contains an IP address, and its metadata",
    description="200 {address, start, end, data}; 404 when no range holds the address; 400 when the "
    "text is not an IPv4 or IPv6 address. IPv4-mapped IPv6 (::ffff:a.b.c.d) is looked up as IPv4.",
)
def get_ip(address: IpAddress) -> Response[Any]:
    resolution = service.resolve([address])
    (outcome,) = resolution.answers
    return Response(
        status_code=outcome.status,
        content_type=content_types.APPLICATION_JSON,
        body=outcome.body,
        headers={VERSION_HEADER: str(resolution.version or 0)},
    )


@app.post(
    "/ip/lookups",
    summary="Look up to 100 addresses at once",
    description='{"version", "results": [{"status", "address", ...}]} in the order asked; each result '
    "is what GET /ip/{address} would answer, with its status.",
)
def post_lookups(request: LookupRequest) -> dict[str, Any]:
    resolution = service.resolve(request.addresses)
    results = [{"status": outcome.status, **outcome.body} for outcome in resolution.answers]
    return {"version": resolution.version, "results": results}
