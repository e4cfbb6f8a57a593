"""The docs service: the function that answers `GET /openapi.json`, every service's routes merged.

Its asset holds every service's route modules (`tatami_functions.docs.api` imports them by name at
run time); every service package is built by the stack (`tests/unit/layout/test_service_shape.py`).
"""

from __future__ import annotations

from collections.abc import Collection

from constructs import Construct

from infra.constructs.service_api import Route
from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from tatami_functions.docs.api import service_api_modules


class DocsService(Construct):
    """The docs function (`Function`) and its route."""

    def __init__(
        self, scope: Construct, construct_id: str, *, shared: Shared, services: Collection[str] | None = None
    ) -> None:
        """``services``: the services whose routes the document shows (None: every service's)."""
        super().__init__(scope, construct_id)
        modules = [m for m in service_api_modules() if services is None or m.split(".")[1] in services]
        self.function = ServiceFunction(
            self,
            "Function",
            layers=shared.layers,
            service="docs",
            handler="tatami_functions.docs.handler.handler",
            imports=modules,  # the routes it merges, imported by name: its asset holds no others
            uses_zorder=True,  # it imports every service's routes, places' among them
            description="Serves the merged OpenAPI document of every route",
        )
        shared.api.add_routes(self.function, [Route("GET", "/openapi.json")])
