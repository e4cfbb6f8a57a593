"""How the samples write: one JSON request to the API, a run of them, a batch into an empty table.

The services' sample modules share these, so every sample writes through the same paths: the API a
client calls, or `common.batch.write_all` (one batch write with one retry policy) for bulk data.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import quote

Request = tuple[str, str, dict[str, Any]]  # method, path (unquoted), JSON body


def send(api_url: str, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """One JSON request to the API; (status, decoded body or None)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        api_url + quote(path, safe="/?=&%"),
        data=data,
        method=method,
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        return exc.code, json.loads(raw) if raw else None


def send_all(
    api_url: str, requests: list[Request], progress: Callable[[int, int], None] = lambda done, total: None
) -> int:
    """Send `requests` in order, stopping at the first refused one (a sample the API rejects is a bug)."""
    for done, (method, path, body) in enumerate(requests, start=1):
        status, answer = send(api_url, method, path, body)
        if status >= 400:
            raise RuntimeError(f"{method} {path} -> {status}: {answer}")
        progress(done, len(requests))
    return len(requests)


def write_items(client: Any, table_name: str, items: Iterable[dict[str, Any]]) -> int:
    """Put plain `items` into an empty table with `common.batch.write_all`; how many were written."""
    from tatami_functions.common.attribute_values import low_level
    from tatami_functions.common.batch import write_all
    from tatami_functions.common.repository import TableRepository

    class Table(TableRepository):
        noun, unavailable = table_name, RuntimeError

    requests = [{"PutRequest": {"Item": low_level(item)}} for item in items]
    return write_all(Table(table_name, client=client), requests)


def has_item(client: Any, table: str, key: dict[str, Any]) -> bool:
    """Whether a kept database (`tatami local --db-path`) already holds a sample's item."""
    return "Item" in client.get_item(TableName=table, Key=key, ConsistentRead=True)
