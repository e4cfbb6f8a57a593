"""The merged OpenAPI document keeps every service's schemas as the service declares them (found by
fuzzing: the documents' `Status` enum and the orders' one shared a component name, so the document
offered ORDERED as a document status and the API refused it)."""

from __future__ import annotations

import importlib
from typing import Any

from infra.constructs.resolver_routes import openapi_document, service_api_modules


def _schemas(module: str) -> dict[str, Any]:
    schema = importlib.import_module(module).app.get_openapi_schema()
    dumped = schema.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dict(dumped.get("components", {}).get("schemas", {}))


def test_no_two_services_declare_different_schemas_under_one_name() -> None:
    seen: dict[str, tuple[str, Any]] = {}
    for module in service_api_modules():
        for name, schema in _schemas(module).items():
            if name in seen and name not in ("HTTPValidationError", "ValidationError"):
                first, declared = seen[name]
                assert declared == schema, f"{name} of {module} differs from {first}'s"
            seen.setdefault(name, (module, schema))
    assert "DocumentStatus" in openapi_document()["components"]["schemas"]
