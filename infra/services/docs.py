"""The docs service: the function that answers `GET /openapi.json`, every service's routes merged.

Its asset holds every service's route modules (`tatami_functions.docs.api` imports them by name at
run time), so the stack passes the packages of the services it built.
"""

from __future__ import annotations

from collections.abc import Sequence

from constructs import Construct

from infra.constructs.service_api import Route
from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared


class DocsService(Construct):
    """The docs function (`Function`) and its route."""

    def __init__(
        self, scope: Construct, construct_id: str, *, shared: Shared, service_packages: Sequence[str]
    ) -> None:
        super().__init__(scope, construct_id)
        self.function = ServiceFunction(
            self,
            "Function",
            layers=shared.layers,
            service="docs",
            handler="tatami_functions.docs.handler.handler",
            packages=["docs", *service_packages],
            uses_zorder=True,  # it imports every service's routes, places' among them
            description="Serves the merged OpenAPI document of every route",
        )
        shared.api.add_routes(self.function, [Route("GET", "/openapi.json")])
