"""Opaque, tamper-proof pagination tokens.

A token carries DynamoDB's LastEvaluatedKey (or any JSON cursor) and an HMAC-SHA256 over it and the
*scope* it was issued for (the route and the caller-visible query, e.g. "orders:customer=42"). A
token edited, forged or replayed against another scope fails verification: the caller gets a 400
naming `next`, never another query's (or user's) data. The key is a Secrets Manager secret, read
once per execution environment with the API functions' client budget (`common.clients.API_CALLS`);
Secrets Manager throttled, unreachable or too slow is a 503 with `Retry-After` like any dependency's
failure (`common.dependencies`), on every route that signs or checks a token.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from decimal import Decimal
from functools import cache
from typing import Any

from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from botocore.exceptions import BotoCoreError, ClientError

from tatami_functions.common.clients import API_CALLS, aws_client
from tatami_functions.common.dependencies import DependencyError, failure
from tatami_functions.common.settings import Settings, variable


class PageTokenSettings(Settings):
    """The secret holding the HMAC key (the PageTokenKey construct's grant sets it)."""

    secret_arn: str = variable("PAGE_TOKEN_SECRET_ARN")


@cache
def _secret() -> bytes:
    # The client (and boto3 with it) with the first token, not at init: `common.clients` says why.
    secretsmanager = aws_client("secretsmanager", API_CALLS)
    try:
        secret_arn = PageTokenSettings.from_env().secret_arn
        value = secretsmanager.get_secret_value(SecretId=secret_arn)["SecretString"]
    except (ClientError, BotoCoreError) as exc:
        raise failure(DependencyError, "cannot read the page-token key", exc, "secretsmanager") from exc
    return str(value).encode()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else str(value)
    if isinstance(value, bytes):
        return {"__b": _b64(value)}
    raise TypeError(f"cannot put {type(value).__name__} into a page token")


def _hook(value: dict[str, Any]) -> Any:
    return _unb64(value["__b"]) if set(value) == {"__b"} else value


def encode_token(cursor: Any, scope: str, key: bytes | None = None) -> str:
    """The opaque `next` token for `cursor`, valid only for `scope`.

    >>> token = encode_token({"pk": "a"}, "orders:c=1", key=b"k")
    >>> decode_token(token, "orders:c=1", key=b"k")
    {'pk': 'a'}
    """
    payload = json.dumps(cursor, default=_default, separators=(",", ":"), sort_keys=True).encode()
    mac = hmac.new(key or _secret(), scope.encode() + b"\0" + payload, hashlib.sha256).digest()
    return f"{_b64(payload)}.{_b64(mac)}"


def decode_token(token: str, scope: str, key: bytes | None = None) -> Any:
    """The cursor inside `token`; BadRequestError (400, naming `next`) unless issued for `scope`."""
    try:
        payload_text, mac_text = token.split(".")
        payload, mac = _unb64(payload_text), _unb64(mac_text)
    except (ValueError, binascii.Error):
        raise BadRequestError("next: malformed pagination token") from None
    expected = hmac.new(key or _secret(), scope.encode() + b"\0" + payload, hashlib.sha256).digest()
    if not hmac.compare_digest(mac, expected):
        raise BadRequestError("next: pagination token was not issued for this query")
    return json.loads(payload, object_hook=_hook)
