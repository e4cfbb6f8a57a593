"""Text as the API takes it: NFC everywhere, path ids percent-decoded once, after routing.

The same word can be spelt with different code points (a precomposed `が`, or `か` plus a combining
mark), and keys compare code points: so every text a request carries (path ids, query parameters,
body strings and field names) is normalised to NFC (Unicode's canonical composition) before any
route sees it, and what is stored is NFC.

Paths: API Gateway's REST API routes on the path as the client encoded it and hands the function the
path and the path parameters still percent-encoded. The resolver matches that encoded path (so ids of
any characters route: letters of any script, combining marks, emoji) and each route argument is then
decoded exactly once. An encoded slash (`%2F`) is therefore part of its id (`a%2Fb` is the id `a/b`,
which the id's pattern accepts or refuses as a 400), never a path separator. A path that arrives
decoded is encoded again first, so the same rule holds for both.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, unquote

from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from pydantic import StringConstraints

__all__ = ["KEY_PART", "encoded_path", "nfc", "normalised_event", "path_name", "path_value", "stripped"]

# Body text is often stripped of surrounding whitespace and must keep a character; the document says
# so with a pattern, so what a fuzzer generates from it is what the validator takes. (In Python's
# regular expressions, which schemathesis generates with, \s is exactly what str.strip() removes.)
NOT_BLANK = r"\S"
# Text that becomes a part of a composite key: not blank, and no '#', the keys' separator.
KEY_PART = r"^[^#]*[^#\s][^#]*$"

# RFC 3986's pchar, '/' and '%': what an encoded path may hold as it is.
_PATH_SAFE = "/%!$&'()*+,;=:@"


def nfc(value: Any) -> Any:
    """`value` with every string in it (dict keys too) in NFC.

    >>> nfc({"か\\u3099": ["e\\u0301"]}) == {"が": ["é"]}
    True
    """
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [nfc(item) for item in value]
    if isinstance(value, dict):
        return {nfc(key): nfc(item) for key, item in value.items()}
    return value


def encoded_path(path: str) -> str:
    """The path percent-encoded where it is not already (what API Gateway's REST API hands over).

    >>> encoded_path("/lockers/😀"), encoded_path("/lockers/a%2Fb")
    ('/lockers/%F0%9F%98%80', '/lockers/a%2Fb')
    """
    return quote(path, safe=_PATH_SAFE)


def path_value(raw: str) -> str:
    """One path parameter as its route sees it: percent-decoded once, NFC.

    >>> path_value("%E3%81%8B%E3%82%99"), path_value("a%2Fb")
    ('が', 'a/b')
    """
    return unicodedata.normalize("NFC", unquote(raw))


def normalised_event(event: Mapping[str, Any]) -> dict[str, Any]:
    """A REST proxy event with its path encoded and its query parameters in NFC (the body is
    normalised once parsed, in `common.api`).

    >>> event = normalised_event({"path": "/a b", "queryStringParameters": {"q": "か\\u3099"}})
    >>> event["path"], event["queryStringParameters"]
    ('/a%20b', {'q': 'が'})
    """
    changed = dict(event)
    if isinstance(event.get("path"), str):
        changed["path"] = encoded_path(event["path"])
    for name in ("queryStringParameters", "multiValueQueryStringParameters"):
        if event.get(name):
            changed[name] = nfc(event[name])
    return changed


def path_name(value: str, field_name: str, forbidden: str = "#%") -> str:
    """A path segment (already decoded by the resolver) checked for forbidden characters.

    >>> path_name("DynamoDB Thread 1", "subject")
    'DynamoDB Thread 1'
    """
    bad = sorted({c for c in value if c in forbidden})
    if bad:
        raise BadRequestError(f"{field_name}: must not contain {' or '.join(repr(c) for c in bad)}")
    return value


def stripped(max_length: int, pattern: str = NOT_BLANK) -> StringConstraints:
    """Text stripped of surrounding whitespace that must keep 1 to `max_length` characters, and whose
    schema says it must hold a character that is not a space (`pattern`).

    >>> from typing import Annotated
    >>> from pydantic import TypeAdapter
    >>> text = TypeAdapter(Annotated[str, stripped(80)])
    >>> text.validate_python("  tatami  "), text.json_schema()["pattern"]
    ('tatami', '\\\\S')
    """
    return StringConstraints(strip_whitespace=True, min_length=1, max_length=max_length, pattern=pattern)
