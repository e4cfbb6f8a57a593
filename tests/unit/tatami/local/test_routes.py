"""tatami/local/gateway/routes.py: API Gateway's resource tree and its matching precedence."""

import pytest

from tatami.local.gateway.routes import Route, RouteTable, read_routes
from tatami.local.template.assembly import Stack


@pytest.fixture
def table() -> RouteTable:
    return RouteTable(
        [
            Route("GET", "/places/search", "Search"),
            Route("GET", "/places/{id}", "Get"),
            Route("PUT", "/places/{id}", "Put"),
            Route("ANY", "/files/{proxy+}", "Files"),
            Route("GET", "/", "Root"),
        ]
    )


def test_literal_part_wins_over_parameter(table: RouteTable) -> None:
    route, params = table.match("GET", "/places/search")  # type: ignore[misc]
    assert (route.function_id, params) == ("Search", {})


def test_parameter_and_method(table: RouteTable) -> None:
    route, params = table.match("PUT", "/places/42")  # type: ignore[misc]
    assert (route.function_id, params) == ("Put", {"id": "42"})


def test_greedy_proxy_and_any_method(table: RouteTable) -> None:
    route, params = table.match("DELETE", "/files/a/b/c.txt")  # type: ignore[misc]
    assert (route.function_id, params) == ("Files", {"proxy": "a/b/c.txt"})


def test_root_and_misses(table: RouteTable) -> None:
    assert table.match("GET", "/")[0].function_id == "Root"  # type: ignore[index]
    assert table.match("POST", "/places/42") is None
    assert table.match("GET", "/places/42/extra") is None
    assert table.match("GET", "/unknown") is None


def test_duplicate_integration_is_an_error() -> None:
    with pytest.raises(ValueError, match="two integrations for GET /a"):
        RouteTable([Route("GET", "/a", "F"), Route("GET", "/a", "G")])


def test_read_routes_from_a_template() -> None:
    root = {"Fn::GetAtt": ["Api", "RootResourceId"]}
    uri = {"Fn::Join": ["", ["arn:", {"Fn::GetAtt": ["Fn", "Arn"]}, "/invocations"]]}
    template = {
        "Resources": {
            "Places": {
                "Type": "AWS::ApiGateway::Resource",
                "Properties": {"ParentId": root, "PathPart": "places"},
            },
            "Place": {
                "Type": "AWS::ApiGateway::Resource",
                "Properties": {"ParentId": {"Ref": "Places"}, "PathPart": "{id}"},
            },
            "GetPlace": {
                "Type": "AWS::ApiGateway::Method",
                "Properties": {
                    "HttpMethod": "GET",
                    "ResourceId": {"Ref": "Place"},
                    "AuthorizationType": "AWS_IAM",
                    "RequestParameters": {
                        "method.request.querystring.fields": True,
                        "method.request.querystring.optional": False,
                    },
                    "Integration": {"Type": "AWS_PROXY", "Uri": uri},
                },
            },
            "Options": {
                "Type": "AWS::ApiGateway::Method",
                "Properties": {"HttpMethod": "OPTIONS", "ResourceId": root, "Integration": {"Type": "MOCK"}},
            },
        }
    }
    routes = read_routes(Stack("S", template, {}))
    assert Route("GET", "/places/{id}", "Fn", ("fields",), (), False, "AWS_IAM") in routes
    assert Route("OPTIONS", "/", None) in routes


def test_an_integration_that_names_an_alias_serves_the_function_behind_it_through_the_alias() -> None:
    """CDK writes an alias's integration URI around the alias's Ref (its ARN): the route is the
    function's, invoked through that alias (what CodeDeploy shifts between versions)."""
    uri = {"Fn::Join": ["", ["arn:", {"Ref": "AWS::Partition"}, ":", {"Ref": "FnLive"}, "/invocations"]]}
    template = {
        "Resources": {
            "Fn": {"Type": "AWS::Lambda::Function", "Properties": {}},
            "FnLive": {
                "Type": "AWS::Lambda::Alias",
                "Properties": {"FunctionName": {"Ref": "Fn"}, "Name": "live"},
            },
            "Get": {
                "Type": "AWS::ApiGateway::Method",
                "Properties": {
                    "HttpMethod": "GET",
                    "ResourceId": {"Fn::GetAtt": ["Api", "RootResourceId"]},
                    "Integration": {"Type": "AWS_PROXY", "Uri": uri},
                },
            },
        }
    }
    (route,) = read_routes(Stack("S", template, {}))
    assert (route.function_id, route.alias_id) == ("Fn", "FnLive")
