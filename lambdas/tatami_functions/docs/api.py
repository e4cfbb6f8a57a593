"""`GET /openapi.json`: every service's Powertools routes merged into one OpenAPI document.

Each service declares its routes in an `api.py` module of its package (a resolver named `app`);
this function imports every such module in its asset and merges their schemas with Powertools'
OpenAPIMerge, so the document can never miss a route that exists.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any

from aws_lambda_powertools.event_handler.openapi.merge import OpenAPIMerge

from tatami_functions.common.api import create_resolver
from tatami_functions.common.openapi import conventional_responses

PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # tatami_functions/, as its asset holds it
PACKAGE = __name__.partition(".")[0]
NOT_SERVICES = {"docs", "common"}

app = create_resolver("the API document")


def service_api_modules(root: Path = PACKAGE_ROOT) -> list[str]:
    """Dotted names of the services' route modules, e.g. `tatami_functions.forum.api`."""
    modules = []
    for path in sorted(root.rglob("api.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[0] not in NOT_SERVICES and "__pycache__" not in parts:
            modules.append(".".join((PACKAGE, *parts)))
    return modules


@cache
def openapi_document() -> dict[str, Any]:
    """The merged document, built once per execution environment (the routes cannot change), with
    the answers every route shares (`common.openapi`)."""
    merger = OpenAPIMerge(title="tatami", version="1.0.0", on_conflict="error")
    for module in service_api_modules():
        merger.add_schema(importlib.import_module(module).app.get_openapi_schema())
    return conventional_responses(merger.get_openapi_schema())


@app.get("/openapi.json", summary="This API's OpenAPI document")
def get_openapi() -> dict[str, Any]:
    return openapi_document()
