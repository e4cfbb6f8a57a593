"""The docs service: the function that answers `GET /openapi.json`, every service's routes merged.

Its asset holds every service's route modules (`tatami_functions.docs.api` imports them by name at
run time); every service package is built by the stack (`tests/unit/layout/test_service_shape.py`).
"""

from __future__ import annotations

from constructs import Construct

from infra.constructs.service_api import Route
from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from tatami_functions.docs.api import service_api_modules


class DocsService(Construct):
    """The docs function (`Function`) and its route."""

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.function = ServiceFunction(
            self,
            "Function",
            layers=shared.layers,
            service="docs",
            handler="tatami_functions.docs.handler.handler",
            imports=service_api_modules(),  # the routes it merges, imported by name
            uses_zorder=True,  # it imports every service's routes, places' among them
            description="Serves the merged OpenAPI document of every route",
        )
        shared.api.add_routes(self.function, [Route("GET", "/openapi.json")])
