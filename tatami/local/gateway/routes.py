"""The REST API's routes as the template declares them, and API Gateway's path matching.

API Gateway matches a literal path part before a `{param}` part before a greedy `{proxy+}`; a
method `ANY` serves every HTTP method its resource has no explicit method for.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tatami.local.template.assembly import Stack, invoked, target_id


@dataclass(frozen=True)
class Route:
    method: str
    resource_path: str  # e.g. /places/{id}
    function_id: str | None  # None: a MOCK integration (answers 200 with no body)
    required_query: tuple[str, ...] = ()
    required_headers: tuple[str, ...] = ()
    api_key_required: bool = False
    authorization: str = "NONE"
    alias_id: str | None = None  # the function's alias the integration invokes, when it names one


@dataclass
class _Node:
    children: dict[str, _Node] = field(default_factory=dict)
    methods: dict[str, Route] = field(default_factory=dict)


class RouteTable:
    """Routes arranged as API Gateway's resource tree; `match` returns the route and path params."""

    def __init__(self, routes: Iterable[Route]) -> None:
        self.routes = list(routes)
        self._root = _Node()
        for route in self.routes:
            node = self._root
            for part in _parts(route.resource_path):
                node = node.children.setdefault(part, _Node())
            if route.method in node.methods:
                raise ValueError(f"two integrations for {route.method} {route.resource_path}")
            node.methods[route.method] = route

    def match(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        """The route serving `method path`, with its path parameters; None when there is none.

        >>> table = RouteTable([Route("GET", "/places/{id}", "Fn")])
        >>> table.match("GET", "/places/42")[1]
        {'id': '42'}
        """
        found = _find(self._root, _parts(path), {})
        if found is None:
            return None
        node, params = found
        route = node.methods.get(method.upper()) or node.methods.get("ANY")
        return (route, params) if route else None


def _parts(path: str) -> list[str]:
    return [part for part in path.split("/") if part]


def _find(node: _Node, parts: list[str], params: dict[str, str]) -> tuple[_Node, dict[str, str]] | None:
    if not parts:
        return node, params
    head, rest = parts[0], parts[1:]
    if head in node.children:
        found = _find(node.children[head], rest, params)
        if found:
            return found
    for key, child in node.children.items():
        if key.endswith("+}"):
            continue
        if key.startswith("{") and key.endswith("}"):
            found = _find(child, rest, {**params, key[1:-1]: head})
            if found:
                return found
    for key, child in node.children.items():
        if key.startswith("{") and key.endswith("+}"):
            return child, {**params, key[1:-2]: "/".join(parts)}
    return None


def read_routes(stack: Stack) -> list[Route]:
    """Every AWS::ApiGateway::Method of the stack as a Route with its full resource path."""
    paths = _resource_paths(stack)
    routes = []
    for _logical_id, props in stack.resources("AWS::ApiGateway::Method"):
        resource_ref = props["ResourceId"]
        resource_id = target_id(resource_ref)
        path = "/" if resource_id is None or resource_ref.get("Fn::GetAtt") else paths[resource_id]
        integration = props.get("Integration", {})
        function_id = alias_id = None
        if integration.get("Type") in ("AWS_PROXY", "AWS"):
            function_id, alias_id = invoked(stack, integration.get("Uri")) or (None, None)
        request_parameters = props.get("RequestParameters", {})
        routes.append(
            Route(
                method=props["HttpMethod"].upper(),
                resource_path=path,
                function_id=function_id,
                required_query=_required(request_parameters, "method.request.querystring."),
                required_headers=_required(request_parameters, "method.request.header."),
                api_key_required=bool(props.get("ApiKeyRequired", False)),
                authorization=str(props.get("AuthorizationType", "NONE")),
                alias_id=alias_id,
            )
        )
    return routes


@dataclass(frozen=True)
class GatewayResponse:
    """An AWS::ApiGateway::GatewayResponse: how API Gateway answers one kind of its own errors."""

    status: int | None
    template: str | None  # the application/json response template (VTL)


def read_gateway_responses(stack: Stack) -> dict[str, GatewayResponse]:
    """The stack's gateway responses by type, e.g. "BAD_REQUEST_PARAMETERS"."""
    return {
        props["ResponseType"]: GatewayResponse(
            int(props["StatusCode"]) if "StatusCode" in props else None,
            props.get("ResponseTemplates", {}).get("application/json"),
        )
        for _logical_id, props in stack.resources("AWS::ApiGateway::GatewayResponse")
    }


def _resource_paths(stack: Stack) -> dict[str, str]:
    resources = dict(stack.resources("AWS::ApiGateway::Resource"))

    def path_of(logical_id: str) -> str:
        props = resources[logical_id]
        parent = props["ParentId"]
        parent_path = "" if "Fn::GetAtt" in parent else path_of(parent["Ref"])
        return f"{parent_path}/{props['PathPart']}"

    return {logical_id: path_of(logical_id) for logical_id in resources}


def _required(parameters: dict[str, Any], prefix: str) -> tuple[str, ...]:
    return tuple(
        sorted(
            name.removeprefix(prefix)
            for name, required in parameters.items()
            if name.startswith(prefix) and required
        )
    )
