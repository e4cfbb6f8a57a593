"""The routes of the API, read at synthesis from where they are declared once: each service's resolver.

A service's routes are the Powertools resolver `app` of its `tatami_functions.<service>.api` module;
the infrastructure reads them from the resolver's OpenAPI schema (its public description of every
route: method, path, parameters) and builds the gateway's methods, and the docs function's document,
from them. Nothing restates a route, so the gateway cannot route what no resolver answers, nor miss
what one does.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from aws_lambda_powertools.event_handler.openapi.encoders import jsonable_encoder
from aws_lambda_powertools.event_handler.openapi.merge import OpenAPIMerge

from infra.paths import LAMBDAS_DIR
from tatami_functions.common.openapi import conventional_responses

FUNCTIONS_PACKAGE = "tatami_functions"
NOT_SERVICES = {"docs", "common"}  # packages with an api module whose routes are not a service's own
METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


@dataclass(frozen=True, slots=True)
class Route:
    """One method of the API: `Route("GET", "/places/{id}")`; `required_query` is checked by API Gateway;
    a route that `pages` takes a signed `next` token (`common.paging`)."""

    method: str
    path: str
    required_query: tuple[str, ...] = ()
    pages: bool = False


def api_module(service: str) -> str:
    """The module holding a service's resolver.

    >>> api_module("places")
    'tatami_functions.places.api'
    """
    return f"{FUNCTIONS_PACKAGE}.{service}.api"


def service_api_modules(root: Path = LAMBDAS_DIR / FUNCTIONS_PACKAGE) -> list[str]:
    """Dotted names of the services' route modules, e.g. `tatami_functions.forum.api`."""
    services = sorted(path.parent.name for path in root.glob("*/api.py"))
    return [api_module(service) for service in services if service not in NOT_SERVICES]


@cache
def openapi_schema(module: str) -> dict[str, Any]:
    """The OpenAPI schema of the resolver `app` in `module`, as JSON values."""
    schema = importlib.import_module(module).app.get_openapi_schema()
    return dict(schema.model_dump(mode="json", by_alias=True, exclude_none=True))


def resolver_routes(module: str, methods: Collection[str] | None = None) -> list[Route]:
    """The routes the resolver in `module` declares (only those of `methods` when given), each with the
    query parameters it requires, in the order the resolver declares its paths."""
    routes = []
    for path, item in openapi_schema(module).get("paths", {}).items():
        for method in METHODS:
            if method in item and (methods is None or method.upper() in methods):
                routes.append(_route(method, path, item[method]))
    return routes


def _route(method: str, path: str, operation: Mapping[str, Any]) -> Route:
    query = [p for p in operation.get("parameters", []) if p.get("in") == "query"]
    required = tuple(p["name"] for p in query if p.get("required"))
    return Route(method.upper(), path, required, pages=any(p["name"] == "next" for p in query))


@cache
def openapi_document(services: frozenset[str] | None = None) -> dict[str, Any]:
    """Every service's routes (those of `services` when given) merged into one OpenAPI document, each
    operation tagged with its service, with the answers every route shares (`common.openapi`): what
    the docs function serves."""
    merger = OpenAPIMerge(title="tatami", version="1.0.0", on_conflict="error")
    for module in service_api_modules():
        service = module.split(".")[1]
        if services is not None and service not in services:
            continue
        schema = importlib.import_module(module).app.get_openapi_schema()
        for item in (schema.paths or {}).values():
            for method in METHODS:
                operation = getattr(item, method, None)
                if operation is not None:
                    operation.tags = [service]
        merger.add_schema(schema)
    # As JSON values, the way the resolver serializes an answer (enums by value), so it can be a file.
    document: dict[str, Any] = jsonable_encoder(conventional_responses(merger.get_openapi_schema()))
    return document
