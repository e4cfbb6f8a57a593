"""The IP lookup routes' bodies and parameters: an address in the path, a batch of addresses."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.openapi.params import Path
from pydantic import AfterValidator, BaseModel, Field
from pydantic_core import PydanticCustomError

from tatami_functions.ip_lookup.addresses import parse_address
from tatami_functions.ip_lookup.exceptions import InvalidAddressError

__all__ = ["MAX_BATCH", "IpAddress", "LookupRequest"]

MAX_BATCH = 100
ADDRESS_FORMATS: dict[str, Any] = {"anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}


def _is_address(text: str) -> str:
    try:
        parse_address(text, map_ipv4=True)
    except InvalidAddressError as exc:
        raise PydanticCustomError("ip_address", "{reason}", {"reason": str(exc)}) from None
    return text


IpAddress = Annotated[
    str,
    Path(description="IPv4 or IPv6 address", max_length=64, json_schema_extra=ADDRESS_FORMATS),
    AfterValidator(_is_address),
]


class LookupRequest(BaseModel):
    addresses: list[Any] = Field(
        min_length=1,
        max_length=MAX_BATCH,
        description=f"1 to {MAX_BATCH} IPv4/IPv6 addresses; a bad one is a 400 in its own result slot",
    )
