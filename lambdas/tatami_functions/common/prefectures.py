"""Japan's 47 prefectures: the top of the locker hierarchy, and the values carts and campaigns accept.

A closed list, so a typo ("東京") is a 400 naming the field instead of a partition nobody queries.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, WithJsonSchema

PREFECTURES = (
    "北海道", "青森県", "岩手県", "宮城県", "秋田県", "山形県", "福島県",
    "茨城県", "栃木県", "群馬県", "埼玉県", "千葉県", "東京都", "神奈川県",
    "新潟県", "富山県", "石川県", "福井県", "山梨県", "長野県", "岐阜県", "静岡県", "愛知県",
    "三重県", "滋賀県", "京都府", "大阪府", "兵庫県", "奈良県", "和歌山県",
    "鳥取県", "島根県", "岡山県", "広島県", "山口県",
    "徳島県", "香川県", "愛媛県", "高知県",
    "福岡県", "佐賀県", "長崎県", "熊本県", "大分県", "宮崎県", "鹿児島県", "沖縄県",
)  # fmt: skip
_KNOWN = frozenset(PREFECTURES)


def check_prefecture(name: str) -> str:
    """The name if it is a prefecture, written in full; ValueError otherwise.

    >>> check_prefecture("千葉県")
    '千葉県'
    >>> check_prefecture("千葉")
    Traceback (most recent call last):
    ...
    ValueError: '千葉' is not one of Japan's 47 prefectures (write it in full, e.g. 千葉県, 東京都)
    """
    if name not in _KNOWN:
        raise ValueError(
            f"{name!r} is not one of Japan's 47 prefectures (write it in full, e.g. 千葉県, 東京都)"
        )
    return name


# The closed list is in the OpenAPI document too, so clients (and fuzzers) see what is accepted.
Prefecture = Annotated[
    str,
    AfterValidator(check_prefecture),
    WithJsonSchema({"type": "string", "enum": list(PREFECTURES), "description": "a prefecture, in full"}),
]
