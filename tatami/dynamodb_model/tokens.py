"""DynamoDB's expressions as tokens: placeholders resolved as they are read, anything unread refused."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["Tokens", "Unsupported"]

_TOKEN = re.compile(r"\s*(?:(#\w+)|(:\w+)|(<>|<=|>=|=|<|>)|([(),+-])|([A-Za-z_][\w.\[\]]*))")


class Unsupported(ValueError):
    """An expression the model does not evaluate (it says which part)."""


class Tokens:
    """The tokens of one expression, placeholders resolved as they are read."""

    def __init__(self, text: str, names: Mapping[str, str], values: Mapping[str, Any]) -> None:
        self.text, self.names, self.values = text, names, values
        self.items: list[tuple[str, str]] = []
        at, end = 0, len(text.rstrip())
        kinds = ("name", "value", "op", "punct", "word")
        while at < end:
            match = _TOKEN.match(text, at)
            if match is None or match.end() == at:
                raise Unsupported(f"cannot read {text[at:]!r} in {text!r}")
            kind = next(k for k, group in zip(kinds, match.groups(), strict=True) if group is not None)
            self.items.append((kind, match.group(match.lastindex or 0)))
            at = match.end()
        self.at = 0

    def peek(self, offset: int = 0) -> tuple[str, str]:
        index = self.at + offset
        return self.items[index] if index < len(self.items) else ("end", "")

    def take(self) -> tuple[str, str]:
        token = self.peek()
        self.at += 1
        return token

    def keyword(self, word: str) -> bool:
        kind, text = self.peek()
        if kind == "word" and text.upper() == word:
            self.at += 1
            return True
        return False

    def expect(self, text: str) -> None:
        if self.take()[1] != text:
            raise Unsupported(f"expected {text!r} in {self.text!r}")

    def path(self) -> str:
        kind, text = self.take()
        if kind == "name":
            if text not in self.names:
                raise Unsupported(f"{text} is not in ExpressionAttributeNames")
            return self.names[text]
        if kind == "word" and not re.search(r"[.\[]", text):
            return text
        raise Unsupported(f"{text!r} in {self.text!r}: only top-level attribute names are modelled")

    def operand(self) -> tuple[str, Any]:
        """("value", a Python value) or ("path", an attribute name)."""
        kind, text = self.peek()
        if kind == "value":
            self.at += 1
            if text not in self.values:
                raise Unsupported(f"{text} is not in ExpressionAttributeValues")
            return "value", self.values[text]
        return "path", self.path()
