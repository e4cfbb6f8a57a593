"""`GET /openapi.json`: every service's Powertools routes merged into one OpenAPI document.

Each service declares its routes in `lambdas/<service>/api.py` (a resolver named `app`); Powertools'
OpenAPI merge discovers and combines them, so the document can never miss a route that exists.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from common.api import create_resolver

LAMBDAS_ROOT = Path(__file__).resolve().parent.parent
TITLE = "tatami"

app = create_resolver()


@cache
def openapi_document() -> dict[str, Any]:
    """The merged document, built once per execution environment (the routes cannot change)."""
    merger = create_resolver()
    merger.configure_openapi_merge(
        path=str(LAMBDAS_ROOT),
        pattern="api.py",
        exclude=["docs/*", "common/*"],
        recursive=True,
        title=TITLE,
        version="1.0.0",
        on_conflict="error",
    )
    return merger.get_openapi_merge_schema()


@app.get("/openapi.json", summary="This API's OpenAPI document")
def get_openapi() -> dict[str, Any]:
    return openapi_document()
