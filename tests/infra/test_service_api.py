"""The REST API's operational edges: every function times out before the gateway does, both log groups
have a retention, and the account-wide CloudWatch role is the stack's only when cdk.json asks."""

from __future__ import annotations

import aws_cdk as cdk
import pytest
from aws_cdk import aws_lambda as lambda_

from infra import constants
from infra.app import cdk_json_context, create_app
from infra.constructs.service_api import COLD_START_ALLOWANCE, INTEGRATION_TIMEOUT, Route, ServiceApi
from tatami.local.gateway.routes import read_routes
from tests.support.synthesis import Synthesized

LATEST = INTEGRATION_TIMEOUT.to_seconds() - COLD_START_ALLOWANCE.to_seconds()


def test_every_function_behind_the_api_stops_before_the_integration(synthesized: Synthesized) -> None:
    served = {route.function_id for route in read_routes(synthesized.stack()) if route.function_id}
    functions = synthesized.resources("AWS::Lambda::Function")
    assert served, "the gateway serves functions"
    timeouts = {function: functions[function]["Properties"]["Timeout"] for function in served}
    assert {function: seconds for function, seconds in timeouts.items() if seconds > LATEST} == {}
    assert max(timeouts.values()) == LATEST  # the places search uses all of it
    for method in synthesized.resources("AWS::ApiGateway::Method").values():
        assert method["Properties"]["Integration"]["TimeoutInMillis"] == 29_000


def test_a_function_as_slow_as_the_gateway_is_refused() -> None:
    stack = cdk.Stack(cdk.App(), "Timeouts")
    api = ServiceApi(stack, "Api")
    slow = lambda_.Function(
        stack,
        "Slow",
        runtime=lambda_.Runtime.PYTHON_3_13,
        handler="index.handler",
        code=lambda_.Code.from_inline("def handler(event, context): pass"),
        timeout=cdk.Duration.seconds(29),
    )
    with pytest.raises(ValueError, match="timeout 29 s; at most 25 s behind the API"):
        api.add_routes(slow, [Route("GET", "/slow")])


def test_api_gateways_execution_log_group_is_in_the_template_with_a_retention(
    synthesized: Synthesized,
) -> None:
    (api_id,) = synthesized.resources("AWS::ApiGateway::RestApi")
    groups = {
        logical_id: group["Properties"]
        for logical_id, group in synthesized.resources("AWS::Logs::LogGroup").items()
        if "LogGroupName" in group["Properties"]
    }
    ((group_id, group),) = groups.items()
    name = ["API-Gateway-Execution-Logs_", {"Ref": api_id}, f"/{constants.API_STAGE}"]
    assert group["LogGroupName"] == {"Fn::Join": ["", name]}
    assert group["RetentionInDays"] > 0
    (stage,) = synthesized.resources("AWS::ApiGateway::Stage").values()
    assert group_id in stage["DependsOn"], "the stage would let API Gateway create it first"


def test_the_account_wide_cloudwatch_role_is_opt_in(synthesized: Synthesized) -> None:
    assert synthesized.resources("AWS::ApiGateway::Account") == {}
    assert not any("CloudWatchRole" in logical_id for logical_id in synthesized.resources("AWS::IAM::Role"))
    context = cdk_json_context()["tatami"]
    app = create_app(context={"tatami": {**context, "apiGatewayCloudWatchRole": True}})
    api = app.node.find_all()
    assert any(node.node.path.endswith("/Api/Api/CloudWatchRole") for node in api)
    assert any(node.node.path.endswith("/Api/Api/Account") for node in api)
