"""/console over HTTP: the page, its scripts and the libraries it uses (all from this machine), and
its JSON endpoints under /console/api. Mounted on the local cloud's API port (`ApiGateway.mount`) and
served by `tatami console` for a deployed stack; both hand it a `Source`.

Endpoints: `overview`, `tables`, `items?table=&index=&limit=&next=`, `zcells` (POST: a Z plan's
ranges as cells, a JSON body that says so in its Content-Type), `traffic?scale=`, `operations`. Bad
parameters are 400s naming the field. When DynamoDB or SQS fails (the sources' clients give up within
seconds: `tatami.clients.CONSOLE_CALLS`), the answer is the functions' 503 with Retry-After, in words that
name no endpoint (`tatami_functions.common.dependencies`).
"""

from __future__ import annotations

import json
import mimetypes
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

from botocore.exceptions import BotoCoreError, ClientError

from tatami.console import assets, tables, zcells
from tatami.console.errors import BadParameter
from tatami.console.sources import Source
from tatami.local.gateway.proxy import Reply, RequestData, field_error, message
from tatami_functions.common.api import is_json
from tatami_functions.common.dependencies import DependencyError, failure

CONSOLE_PATH = "/console"
NO_STORE = ("Cache-Control", "no-cache")
DYNAMODB_ONLY = frozenset({"items", "traffic"})  # endpoints whose one dependency is DynamoDB (503s name it)


class Console:
    """Answers every request under /console from `source`."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.endpoints: dict[tuple[str, str], Callable[[dict[str, list[str]], bytes], Any]] = {
            ("GET", "overview"): lambda _q, _b: source.overview(),
            ("GET", "tables"): lambda _q, _b: source.tables(),
            ("GET", "items"): self._items,
            ("POST", "zcells"): self._zcells,
            ("GET", "traffic"): lambda q, _b: source.traffic(_number(q, "scale", 1.0)),
            ("GET", "operations"): lambda _q, _b: source.operations(),
        }

    def __call__(self, request: RequestData) -> Reply:
        path = request.path.removeprefix(CONSOLE_PATH).strip("/")
        if path.startswith("api/"):
            return self._api(request, path.removeprefix("api/"))
        if request.method not in ("GET", "HEAD"):
            return message(405, f"{request.method} is not allowed on {request.path}")
        found = assets.find(path)
        if found is None or not found.is_file():
            missing = "" if found is None else " (run `make install`: it brings the console's libraries)"
            return message(404, f"no console file {request.path}{missing}")
        kind = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
        return Reply(200, found.read_bytes(), (("Content-Type", kind), NO_STORE))

    def _api(self, request: RequestData, name: str) -> Reply:
        endpoint = self.endpoints.get((request.method, name))
        if endpoint is None:
            known = sorted(f"{method} /console/api/{path}" for method, path in self.endpoints)
            return message(404, f"no console endpoint {request.method} {request.path}; there are {known}")
        if request.body and not is_json(request.header("content-type")):
            said = request.header("content-type") or "no Content-Type"
            return field_error(
                415, "Content-Type", "header", f"the body must be JSON (application/json): {said}"
            )
        try:
            body = endpoint(parse_qs(request.query), request.body)
        except BadParameter as exc:
            return field_error(400, exc.field, "query", exc.reason)
        except (BotoCoreError, ClientError) as exc:  # DynamoDB, SQS or the account: theirs, not the caller's
            service = "dynamodb" if name in DYNAMODB_ONLY else ""
            unavailable = failure(DependencyError, f"console {name}", exc, service)
            headers = (("Content-Type", "application/json"), ("Retry-After", str(unavailable.retry_after)))
            return Reply(503, json.dumps({"message": str(unavailable)}).encode(), headers)
        return Reply(
            200, json.dumps(body, default=str).encode(), (("Content-Type", "application/json"), NO_STORE)
        )

    def _items(self, query: dict[str, list[str]], _body: bytes) -> Any:
        name = _text(query, "table")
        found = [t for t in self.source.tables() if t["name"] == name]
        if not found:
            raise BadParameter("table", f"no table {name!r} in this stack")
        limit = _integer(query, "limit", 100)
        index, token = _optional(query, "index"), _optional(query, "next")
        return tables.page(self.source.dynamodb(), found[0], index, limit, token)

    def _zcells(self, _query: dict[str, list[str]], body: bytes) -> Any:
        try:
            asked = json.loads(body or b"{}")
        except ValueError:
            raise BadParameter("body", "is not JSON") from None
        if not isinstance(asked, dict):
            raise BadParameter("body", "must be a JSON object")
        indexed = self.source.indexed_tables()
        name = asked.get("table")
        if name not in indexed:
            raise BadParameter("table", f"no indexed table {name!r}; there are {sorted(indexed)}")
        return zcells.cells(
            indexed[name], str(asked.get("index")), asked.get("ranges") or [], asked.get("axes") or []
        )


def _optional(query: dict[str, list[str]], name: str) -> str | None:
    values = query.get(name)
    return values[-1] if values and values[-1] else None


def _text(query: dict[str, list[str]], name: str) -> str:
    value = _optional(query, name)
    if value is None:
        raise BadParameter(name, "is required")
    return value


def _integer(query: dict[str, list[str]], name: str, default: int) -> int:
    number = _number(query, name, float(default))
    if not number.is_integer():
        raise BadParameter(name, f"must be a whole number, got {number:g}")
    return int(number)


def _number(query: dict[str, list[str]], name: str, default: float) -> float:
    value = _optional(query, name)
    if value is None:
        return default
    try:
        return float(value)
    except ValueError:
        raise BadParameter(name, f"must be a number, got {value!r}") from None
