"""Item sizes as DynamoDB bills them: the number sizes DynamoDB Local 3.3 reported (measured by the write
units of items whose size crosses 1 KB by one byte), pinned."""

from __future__ import annotations

from decimal import Decimal

import pytest

from zindex.sizes import item_size, number_size

MEASURED = {  # the number's text -> its bytes, as DynamoDB Local counted them
    "0": 1,
    "7": 2,
    "1.5": 3,
    "5.5": 3,
    "12.5": 3,
    "35.68": 3,
    "35.6895": 4,
    "135.6895": 5,
    "-35.6895": 5,
    "100": 2,
    "1200": 2,
    "0.0012": 2,
    "8336599": 5,
    "4294967295": 6,
    "12345678901234567890123456789012345678": 20,
}


@pytest.mark.parametrize(("text", "size"), sorted(MEASURED.items()))
def test_a_number_takes_its_digit_pairs_aligned_on_the_decimal_point(text: str, size: int) -> None:
    assert number_size(Decimal(text)) == size
    assert item_size({"n": Decimal(text)}) == 1 + size


def test_ints_and_floats_count_as_the_numbers_they_are_sent_as() -> None:
    assert number_size(8336599) == number_size(Decimal("8336599")) == 5
    assert number_size(35.6895) == number_size(Decimal("35.6895"))
