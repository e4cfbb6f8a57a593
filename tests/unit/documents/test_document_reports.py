"""Seed 004's documents as values: its RCU arithmetic, where bodies go, the size limit."""

from __future__ import annotations

import os
from datetime import date

import pytest
from pydantic import ValidationError

from tatami_functions.documents.reports import (
    INLINE_MAX_BYTES,
    MAX_DOCUMENT_BYTES,
    DocumentStatus,
    listed,
    pack,
    query_read_units,
    status_with_created_on,
    unpack,
)
from tatami_functions.documents.schemas import DocumentIn


def test_the_seed_list_cost_1600_rcu_and_the_gsi_entry_holds_no_body() -> None:
    assert query_read_units(50 * 256 * 1024) == 1600.0  # 50 x 256 KB / 4 KB x 1/2
    assert query_read_units(50 * 80) == 0.5
    assert status_with_created_on("COMPLETED", date(2021, 7, 13)) == "COMPLETED#2021-07-13"
    entry = listed({"report_id": "r", "summary": "s", "status_with_created_on": "PENDING#2021-07-14"})
    assert entry == {"report_id": "r", "status": "PENDING", "created_on": "2021-07-14", "summary": "s"}


def test_bodies_up_to_8_kib_compressed_stay_inline_and_larger_go_to_s3() -> None:
    small = "売上レポート " * 2000  # 36 KB of text, a few hundred bytes compressed
    assert pack(small).inline is not None and unpack(pack(small).inline or b"") == small
    noise = os.urandom(INLINE_MAX_BYTES).hex()
    assert pack(noise).inline is None
    assert pack("x", inline_max=0).inline is None


def test_a_document_over_1_mib_is_refused_naming_document() -> None:
    with pytest.raises(ValidationError) as caught:
        DocumentIn(status=DocumentStatus.PENDING, summary="s", document="a" * (MAX_DOCUMENT_BYTES + 1))
    assert caught.value.errors()[0]["loc"] == ("document",)
