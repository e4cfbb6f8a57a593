"""The console's one error: a bad parameter, answered 400 with the field it names."""

from __future__ import annotations


class BadParameter(ValueError):
    """`field` is wrong; `reason` says how."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field, self.reason = field, reason
