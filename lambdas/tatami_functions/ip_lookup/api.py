"""Routes of the IP lookup service: `GET /ip/{address}` and `POST /ip/lookups` (up to 100 addresses).

Every answer carries the dataset version it came from (header `X-Ip-Dataset-Version`, and `version`
in the batch body); one request never mixes versions.
"""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.openapi.params import Path
from pydantic import AfterValidator, BaseModel, Field
from pydantic_core import PydanticCustomError

from tatami_functions.common.api import create_resolver
from tatami_functions.ip_lookup.addresses import parse_address
from tatami_functions.ip_lookup.exceptions import InvalidAddressError
from tatami_functions.ip_lookup.lookup import MAX_BATCH, resolve

VERSION_HEADER = "X-Ip-Dataset-Version"
ADDRESS_FORMATS: dict[str, Any] = {"anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}

app = create_resolver("IP lookup")


def _is_address(text: str) -> str:
    try:
        parse_address(text, map_ipv4=True)
    except InvalidAddressError as exc:
        raise PydanticCustomError("ip_address", "{reason}", {"reason": str(exc)}) from None
    return text


class LookupRequest(BaseModel):
    addresses: list[Any] = Field(
        min_length=1,
        max_length=MAX_BATCH,
        description=f"1 to {MAX_BATCH} IPv4/IPv6 addresses; a bad one is a 400 in its own result slot",
    )


@app.get(
    "/ip/<address>",
    summary="The range that contains an IP address, and its metadata",
    description="200 {address, start, end, data}; 404 when no range holds the address; 400 when the "
    "text is not an IPv4 or IPv6 address. IPv4-mapped IPv6 (::ffff:a.b.c.d) is looked up as IPv4.",
)
def get_ip(
    address: Annotated[
        str,
        Path(description="IPv4 or IPv6 address", max_length=64, json_schema_extra=ADDRESS_FORMATS),
        AfterValidator(_is_address),
    ],
) -> Response[Any]:
    resolution = resolve([address])
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
    resolution = resolve(request.addresses)
    results = [{"status": outcome.status, **outcome.body} for outcome in resolution.answers]
    return {"version": resolution.version, "results": results}
