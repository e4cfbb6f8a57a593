"""The docs service: the function that answers `GET /openapi.json` with the API's OpenAPI document.

The document is generated at synthesis from every service's resolver
(`infra.constructs.resolver_routes.openapi_document`) into the function's asset beside its api
module, so the function serves a file and imports no service.
"""

from __future__ import annotations

import json
from collections.abc import Collection

from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.resolver_routes import openapi_document
from infra.constructs.shared import Shared
from tatami_functions.docs.api import DOCUMENT_IN_ASSET


class DocsService(Construct):
    """The docs function (`Function`) and its route."""

    def __init__(
        self, scope: Construct, construct_id: str, *, shared: Shared, services: Collection[str] | None = None
    ) -> None:
        """``services``: the services whose routes the document shows (None: every service's)."""
        super().__init__(scope, construct_id)
        self.function = ApiFunction(
            self,
            "Function",
            shared=shared,
            service="docs",
            generated={DOCUMENT_IN_ASSET: json.dumps(openapi_document(_selected(services))).encode()},
            description="Serves the OpenAPI document of every route, generated at synthesis",
        )


def _selected(services: Collection[str] | None) -> frozenset[str] | None:
    return None if services is None else frozenset(services)
