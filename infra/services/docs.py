"""The docs service: the function that answers `GET /openapi.json` with the API's OpenAPI document.

The document is generated at synthesis from every service's resolver
(`infra.constructs.resolver_routes.openapi_document`) into the function's asset beside its api
module, so the function serves a file and imports no service.
"""

from __future__ import annotations

import json

from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.resolver_routes import openapi_document
from infra.constructs.shared import Shared
from tatami_functions.docs.api import DOCUMENT_IN_ASSET


class DocsService(Construct):
    """The docs function (`Function`) and its route."""

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.function = ApiFunction(
            self,
            "Function",
            shared=shared,
            service="docs",
            generated={DOCUMENT_IN_ASSET: json.dumps(openapi_document()).encode()},
            description="Serves the OpenAPI document of every route, generated at synthesis",
        )
