"""The one REST API every service adds its routes to.

Production defaults: stage throttling, request validation, JSON access logs, execution logs (both
log groups in the template, with a retention), X-Ray tracing, IAM authorization (or API keys with
a usage plan), and every route of each service's resolver as a method of its own, read at synthesis
(`resolver_routes`, `api_function`), so the template names every method explicitly (the local cloud
serves exactly those). Every function behind it times out before the integration does.

Logging needs the account's API Gateway CloudWatch role, an account-wide setting that other APIs of
the account log through: the stack sets it only when asked (`cloud_watch_role=True`, cdk.json
`tatami.apiGatewayCloudWatchRole`).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from dataclasses import dataclass

from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra import constants
from infra.constructs.deployments import live_alias
from infra.constructs.resolver_routes import Route
from infra.nag import acknowledge

_NOT_COGNITO = "Callers authenticate with IAM (SigV4) or API keys, not Cognito user pools."


class ApiAuth(enum.Enum):
    """How callers authenticate: SigV4-signed IAM requests, or an API key with a usage plan."""

    IAM = "iam"
    API_KEY = "api-key"


# API Gateway's own 400s (a missing required parameter, a request validation failure) in the shape of
# the functions' 400s (`tatami_functions.common.api`): {"message", "errors": [{"field", "in",
# "message"}]}. API Gateway gives its reason as one text, which names the parameters; the local cloud
# renders these templates.
_GATEWAY_400 = {
    apigw.ResponseType.BAD_REQUEST_PARAMETERS: ("parameters", "request"),
    apigw.ResponseType.BAD_REQUEST_BODY: ("body", "body"),
}


def _gateway_400_template(field: str, where: str) -> str:
    """The response template: JSON around API Gateway's reason (`messageString` is quoted already).

    >>> _gateway_400_template("body", "body")[:70]
    '{"message": $context.error.messageString, "errors": [{"field": "body", '
    """
    shape = {"message": "REASON", "errors": [{"field": field, "in": where, "message": "REASON"}]}
    return json.dumps(shape).replace('"REASON"', "$context.error.messageString")


# API Gateway ends a request at its integration timeout (29 s, the default and the quota). A function
# behind it stops first, leaving room for a cold start and the gateway's own hops: a slow request then
# ends as the function's timeout (the gateway answers 502) instead of a 504 with the function still
# running and billed.
INTEGRATION_TIMEOUT = Duration.seconds(29)
COLD_START_ALLOWANCE = Duration.seconds(4)
LOG_RETENTION = logs.RetentionDays.THREE_MONTHS


@dataclass(frozen=True, slots=True)
class Throttle:
    rate_per_second: int = 200
    burst: int = 400


class ServiceApi(Construct):
    """A regional REST API with one stage; each service's `ApiFunction` adds its resolver's routes."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        auth: ApiAuth = ApiAuth.IAM,
        throttle: Throttle | None = None,
        cloud_watch_role: bool = False,
    ) -> None:
        super().__init__(scope, construct_id)
        throttle = throttle or Throttle()
        self.auth = auth
        access_logs = logs.LogGroup(self, "AccessLogs", retention=LOG_RETENTION)
        self.rest_api = apigw.RestApi(
            self,
            "Api",
            # API Gateway keys its metrics by ApiName and Stage, and every stage's stage is v1: named
            # after its stack, each stage's alarms count its own requests only.
            rest_api_name=Stack.of(self).stack_name,
            description="tatami: DynamoDB patterns behind one REST API",
            endpoint_types=[apigw.EndpointType.REGIONAL],
            # Asked for, the role and the account setting outlive the stack: other APIs log through them.
            cloud_watch_role=cloud_watch_role,
            cloud_watch_role_removal_policy=RemovalPolicy.RETAIN if cloud_watch_role else None,
            deploy_options=apigw.StageOptions(
                stage_name=constants.API_STAGE,
                throttling_rate_limit=throttle.rate_per_second,
                throttling_burst_limit=throttle.burst,
                access_log_destination=apigw.LogGroupLogDestination(access_logs),
                access_log_format=apigw.AccessLogFormat.json_with_standard_fields(
                    caller=True,
                    http_method=True,
                    ip=True,
                    protocol=True,
                    request_time=True,
                    resource_path=True,
                    response_length=True,
                    status=True,
                    user=True,
                ),
                logging_level=apigw.MethodLoggingLevel.ERROR,
                metrics_enabled=True,
                tracing_enabled=True,
            ),
            default_method_options=apigw.MethodOptions(
                authorization_type=apigw.AuthorizationType.IAM if auth is ApiAuth.IAM else None,
                api_key_required=auth is ApiAuth.API_KEY,
            ),
        )
        self.validator = self.rest_api.add_request_validator(
            "Validator", validate_request_parameters=True, validate_request_body=True
        )
        for response_type, (field, where) in _GATEWAY_400.items():
            self.rest_api.add_gateway_response(
                f"{response_type.response_type}Response",
                type=response_type,
                status_code="400",
                templates={"application/json": _gateway_400_template(field, where)},
            )
        self._add_execution_logs()
        if auth is ApiAuth.API_KEY:
            self._add_usage_plan(throttle)
        self._suppress_nag_findings(cloud_watch_role)

    def _add_execution_logs(self) -> None:
        """The group API Gateway writes execution logs to, in the template so that it has a retention (API
        Gateway would create it on first use, never expiring); the stage waits for it."""
        group = logs.LogGroup(
            self,
            "ExecutionLogs",
            log_group_name=f"API-Gateway-Execution-Logs_{self.rest_api.rest_api_id}/{constants.API_STAGE}",
            retention=LOG_RETENTION,
        )
        self.rest_api.deployment_stage.node.add_dependency(group)

    def add_routes(self, function: lambda_.Function, routes: Sequence[Route]) -> None:
        """Serve each route with `function`'s live alias (API Gateway proxy integration, one permission
        per method), which CodeDeploy shifts to each new version (`deployments.live_alias`)."""
        _check_timeout(function)
        integration = apigw.LambdaIntegration(
            live_alias(function), allow_test_invoke=False, timeout=INTEGRATION_TIMEOUT
        )
        for route in routes:
            resource = self.rest_api.root.resource_for_path(route.path)
            method = resource.add_method(
                route.method,
                integration,
                request_validator=self.validator,
                request_parameters={f"method.request.querystring.{q}": True for q in route.required_query},
            )
            acknowledge(method, "AwsSolutions-COG4", _NOT_COGNITO)

    def _add_usage_plan(self, throttle: Throttle) -> None:
        plan = self.rest_api.add_usage_plan(
            "UsagePlan",
            throttle=apigw.ThrottleSettings(rate_limit=throttle.rate_per_second, burst_limit=throttle.burst),
            api_stages=[apigw.UsagePlanPerApiStage(api=self.rest_api, stage=self.rest_api.deployment_stage)],
        )
        plan.add_api_key(self.rest_api.add_api_key("ApiKey"))

    def _suppress_nag_findings(self, cloud_watch_role: bool) -> None:
        reasons = [
            (
                "AwsSolutions-APIG3",
                "WAF is an account-level decision; attach a web ACL to the stage if required.",
            ),
        ]
        if self.auth is ApiAuth.API_KEY:
            reasons.append(
                ("AwsSolutions-APIG4", "Methods require an API key tied to a throttled usage plan.")
            )
        for rule, reason in reasons:
            acknowledge(self, rule, reason)
        if cloud_watch_role:
            acknowledge(
                self,
                "AwsSolutions-IAM4",
                "The account-level API Gateway logging role uses AWS's managed push-to-CloudWatch policy.",
                "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs",
            )


def _check_timeout(function: lambda_.Function) -> None:
    allowed = INTEGRATION_TIMEOUT.to_seconds() - COLD_START_ALLOWANCE.to_seconds()
    timeout = (function.timeout or Duration.seconds(3)).to_seconds()
    if timeout > allowed:
        raise ValueError(
            f"{function.node.path}: timeout {timeout} s; at most {allowed} s behind the API (the "
            f"integration's {INTEGRATION_TIMEOUT.to_seconds()} s less a cold start's allowance)"
        )
