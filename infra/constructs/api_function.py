"""The recipe every API service follows once: one function serving its resolver's routes.

The function runs `tatami_functions.<service>.handler.<entry>`, serves on the one API every route
its resolver declares (or those of `methods`), and may read the page-token key when one of those
routes pages (takes `next`). A service's construct states only what differs: its tables and grants,
its settings, memory and timeout, its description.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from infra.constructs.resolver_routes import FUNCTIONS_PACKAGE, api_module, resolver_routes
from infra.constructs.service_function import ServiceFunction

if TYPE_CHECKING:
    from constructs import Construct

    from infra.constructs.shared import Shared


class ApiFunction(ServiceFunction):
    """The function of `service` behind the API: its resolver's routes, and page tokens if they page.

    >>> ApiFunction(self, "Function", shared=shared, service="lockers", description="...")  # doctest: +SKIP
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        shared: Shared,
        service: str,
        entry: str = "handler",
        methods: Collection[str] | None = None,
        **function_props: Any,
    ) -> None:
        super().__init__(
            scope,
            construct_id,
            layers=shared.layers,
            service=service,
            handler=f"{FUNCTIONS_PACKAGE}.{service}.handler.{entry}",
            **function_props,
        )
        serve_resolver_routes(self, shared=shared, service=service, methods=methods)


def serve_resolver_routes(
    function: ServiceFunction, *, shared: Shared, service: str, methods: Collection[str] | None = None
) -> None:
    """Serve on the one API the routes `service`'s resolver declares (those of `methods`) with
    `function`, which may read the page-token key when one of them pages: for a function a pattern
    (infra/patterns) made, as for an ApiFunction."""
    routes = resolver_routes(api_module(service), methods)
    if any(route.pages for route in routes):
        shared.page_tokens.grant(function)
    shared.api.add_routes(function, routes)
