"""`GET /openapi.json`: the OpenAPI document of every service's routes.

The document is generated at synthesis from the services' resolvers (each service's `api` module,
where its routes are declared once: `infra.constructs.resolver_routes`) and shipped in this
function's asset beside this module, so the function reads a file and imports no service: its cold
start is a resolver's, not every service's (bench/cold_start.py).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from tatami_functions.common.api import create_resolver

DOCUMENT_IN_ASSET = "tatami_functions/docs/openapi.json"  # relative to the asset's root
DOCUMENT = Path(__file__).resolve().parent / "openapi.json"

app = create_resolver("docs")


@cache
def openapi_document() -> dict[str, Any]:
    """The generated document, read once per execution environment (the routes cannot change)."""
    document: dict[str, Any] = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    return document


@app.get("/openapi.json", summary="This API's OpenAPI document")
def get_openapi() -> dict[str, Any]:
    return openapi_document()
