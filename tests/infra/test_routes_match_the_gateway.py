"""Routes are declared once, in each service's resolver (`api.py`), and the gateway's methods are
generated from them at synthesis (`infra.constructs.resolver_routes`): the synthesized gateway must
route exactly the resolvers' routes, each to the function whose handler loads that resolver."""

from __future__ import annotations

import importlib
from collections import defaultdict

import pytest

from infra.constructs.resolver_routes import service_api_modules
from tatami.local.gateway.routes import read_routes
from tests.support.synthesis import Synthesized

pytestmark = pytest.mark.infra
METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}


def resolver_routes(module: str) -> set[tuple[str, str]]:
    """(METHOD, path) of every route the resolver in `module` declares."""
    paths = importlib.import_module(module).app.get_openapi_schema().paths or {}
    return {
        (method.upper(), path)
        for path, item in paths.items()
        for method in item.model_dump(exclude_none=True)
        if method in METHODS
    }


def gateway_routes(synthesized: Synthesized) -> dict[str, set[tuple[str, str]]]:
    """Service package (the handler's module without `.handler`) -> the routes the gateway sends it."""
    stack = synthesized.stack()
    functions = synthesized.resources("AWS::Lambda::Function")
    served: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for route in read_routes(stack):
        if route.function_id is not None:
            handler = functions[route.function_id]["Properties"]["Handler"]
            served[handler.rsplit(".", 2)[0]].add((route.method, route.resource_path))
    return served


def test_the_gateway_routes_exactly_the_resolvers_routes_to_their_own_function(
    synthesized: Synthesized,
) -> None:
    served = gateway_routes(synthesized)
    declared = {module.removesuffix(".api"): resolver_routes(module) for module in service_api_modules()}
    declared["tatami_functions.docs"] = resolver_routes("tatami_functions.docs.api")
    assert set(served) == set(declared)
    for package, routes in declared.items():
        assert served[package] == routes, package
