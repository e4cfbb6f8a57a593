"""lambdas/tatami_functions/common/tokens.py: page tokens round-trip and refuse tampering or another scope."""

from decimal import Decimal

import pytest
from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from hypothesis import given
from hypothesis import strategies as st

from tatami_functions.common.tokens import decode_token, encode_token

KEY = b"test-key"
cursors = st.dictionaries(
    st.text(min_size=1, max_size=8),
    st.one_of(st.text(max_size=20), st.integers(-(10**12), 10**12), st.binary(max_size=16)),
    max_size=4,
)


@given(cursors, st.text(max_size=30))
def test_round_trip(cursor: dict, scope: str) -> None:
    assert decode_token(encode_token(cursor, scope, key=KEY), scope, key=KEY) == cursor


def test_decimals_from_dynamodb_are_kept() -> None:
    token = encode_token({"n": Decimal("42"), "f": Decimal("1.5")}, "s", key=KEY)
    assert decode_token(token, "s", key=KEY) == {"n": 42, "f": "1.5"}


def test_another_scope_is_rejected() -> None:
    token = encode_token({"pk": "user#1"}, "documents:user=1", key=KEY)
    with pytest.raises(BadRequestError, match="next: pagination token was not issued for this query"):
        decode_token(token, "documents:user=2", key=KEY)


@pytest.mark.parametrize("forged", ["", "abc", "a.b.c", "!!!.???", "eyJwayI6InVzZXIjMiJ9.AAAA"])
def test_forged_tokens_are_rejected(forged: str) -> None:
    with pytest.raises(BadRequestError, match=r"^next: "):
        decode_token(forged, "documents:user=1", key=KEY)


def test_edited_payload_is_rejected() -> None:
    payload, mac = encode_token({"pk": "user#1"}, "s", key=KEY).split(".")
    other_payload = encode_token({"pk": "user#2"}, "s", key=b"attacker").split(".")[0]
    with pytest.raises(BadRequestError):
        decode_token(f"{other_payload}.{mac}", "s", key=KEY)
    assert payload != other_payload
