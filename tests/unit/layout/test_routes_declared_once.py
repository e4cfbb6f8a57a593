"""Each route is declared once, in its service's resolver (`tatami_functions.<service>.api`): the
infrastructure reads the routes from the resolvers at synthesis (`infra.constructs.resolver_routes`)
and restates none; the OpenAPI document comes from the same resolvers. The Z-index searches read like
every list route: the repository returns a page as data, the service signs its token and builds the
body (`common.paging`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from infra.constructs.resolver_routes import api_module, resolver_routes, service_api_modules
from tests.support.synthesis import Synthesized

ROOT = Path(__file__).resolve().parents[3]
INFRA_SERVICES = ROOT / "infra" / "services"
FUNCTIONS = ROOT / "lambdas" / "tatami_functions"
SEARCHING_SERVICES = ("places", "orders")  # the services whose routes search through the Z-index engine
TOKEN_NAMES = {"next_token", "cursor_from", "encode_token", "decode_token", "page_body"}


def _calls(path: Path) -> list[str]:
    """The names called in a module (`f(...)` and `x.f(...)` alike)."""
    tree = ast.parse(path.read_text())
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            function = node.func
            names.append(
                function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
            )
    return names


def _imported(path: Path) -> set[str]:
    """The modules a module imports and the names it imports from them."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


@pytest.mark.parametrize("module", sorted(INFRA_SERVICES.glob("*.py")), ids=lambda p: p.stem)
def test_no_service_construct_restates_a_route(module: Path) -> None:
    called = _calls(module)
    assert "Route" not in called, f"{module.name} declares a Route: the resolver declares it"
    assert "add_routes" not in called, f"{module.name} adds routes itself: ApiFunction reads its resolver's"


def test_every_service_with_a_resolver_has_routes_the_infrastructure_reads() -> None:
    modules = service_api_modules()
    assert len(modules) >= 13, modules
    for module in modules:
        routes = resolver_routes(module)
        assert routes, module
        assert all(route.path.startswith("/") and "<" not in route.path for route in routes), module


def test_required_query_parameters_come_from_the_resolver() -> None:
    """API Gateway checks a required query parameter because the resolver requires it (and only then)."""
    listing = {
        route.method: route for route in resolver_routes(api_module("lockers")) if route.path == "/lockers"
    }
    assert listing["GET"].required_query == ("state",)
    assert all(not route.required_query for route in resolver_routes(api_module("places")))
    assert {route.pages for route in resolver_routes(api_module("ip_lookup"))} == {False}
    assert any(route.pages for route in resolver_routes(api_module("places")))


@pytest.mark.infra
def test_every_resolver_route_is_a_method_of_the_synthesized_api(synthesized: Synthesized) -> None:
    methods = synthesized.resources("AWS::ApiGateway::Method")
    resources = synthesized.resources("AWS::ApiGateway::Resource")

    def path_of(reference: object) -> str:
        if not isinstance(reference, dict) or "Ref" not in reference:
            return ""  # the API's root (a GetAtt of the RestApi)
        resource = resources[reference["Ref"]]["Properties"]
        return f"{path_of(resource['ParentId'])}/{resource['PathPart']}"

    served = {
        (m["Properties"]["HttpMethod"], path_of(m["Properties"]["ResourceId"])) for m in methods.values()
    }
    declared = {(r.method, r.path) for module in service_api_modules() for r in resolver_routes(module)}
    assert declared <= served
    assert served - declared == {("GET", "/openapi.json")}  # the docs function's own route


@pytest.mark.parametrize("service", SEARCHING_SERVICES)
def test_the_search_repository_returns_a_page_and_signs_no_token(service: str) -> None:
    repository = FUNCTIONS / service / "repository.py"
    assert not _imported(repository) & {"tatami_functions.common.tokens", *TOKEN_NAMES}
    search = _function(repository, "search")
    assert ast.unparse(search.returns or ast.Constant(None)) == "SearchPage"
    assert "token" not in {argument.arg for argument in search.args.args}


def test_the_engine_search_returns_data_and_imports_no_token_module() -> None:
    index_search = FUNCTIONS / "common" / "index_search.py"
    assert not _imported(index_search) & {"tatami_functions.common.tokens", "tatami_functions.common.paging"}
    assert ast.unparse(_function(index_search, "search_page").returns or ast.Constant(None)) == "SearchPage"


@pytest.mark.parametrize("service", SEARCHING_SERVICES)
def test_the_search_service_builds_its_body_like_a_list_route(service: str) -> None:
    called = _calls(FUNCTIONS / service / "service.py")
    assert {"scope", "cursor_from", "page_body"} <= set(called)


def _function(path: Path, name: str) -> ast.FunctionDef:
    (found,) = [
        node
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef) and node.name == name
    ]
    return found


def test_every_page_token_scope_is_named_by_its_service() -> None:
    """`scope("<service>[.<route>]", ...)`: a token names the service that signed it, as the OpenAPI
    document tags each operation with its service."""
    named = 0
    for module in FUNCTIONS.glob("*/*.py"):
        service = module.parent.name
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "scope" and node.args:
                first = node.args[0]
                if isinstance(first, ast.JoinedStr):  # f"invoices.{kind}": its written-out start
                    first = first.values[0]
                assert isinstance(first, ast.Constant), f"{module}: a scope's name is written out"
                assert str(first.value).split(".")[0] == service, f"{module}: scope {first.value!r}"
                named += 1
    assert named >= 15
