"""Lambda functions and the layers they share, built without Docker.

Each function's asset is the `lambdas/` folder filtered to the packages of `tatami_functions` it needs
(its service and `common`), so handlers import `tatami_functions.places.api` the same way in Lambda,
in the local cloud and in tests.
A function's `environment` comes from its service's settings declaration
(`tatami_functions.common.settings`: `XSettings.environment(...)`), never from variable names written here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from aws_cdk import Aws, CfnRule, CfnRuleAssertion, Duration, Fn, RemovalPolicy, Stack
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra import constants
from infra.nag import LAMBDA_LOGS, acknowledge
from infra.paths import LAMBDAS_DIR, ZORDER_LAYER_DIR
from tatami_functions.common.settings import PowertoolsSettings

RUNTIME = lambda_.Runtime.PYTHON_3_14
ARCHITECTURE = lambda_.Architecture.ARM_64
_BUILD_LITTER = ["**/__pycache__", "**/*.pyc", "**/*.egg-info", "**/.mypy_cache"]
FUNCTIONS_PACKAGE = "tatami_functions"  # the one package under lambdas/: every handler string starts with it


class SharedLayers(Construct):
    """The `zorder` layer (built from layers/zorder) and the public Powertools layer."""

    def __init__(self, scope: Construct, construct_id: str) -> None:
        super().__init__(scope, construct_id)
        self.zorder = lambda_.LayerVersion(
            self,
            "Zorder",
            code=lambda_.Code.from_asset(
                str(ZORDER_LAYER_DIR), exclude=["pyproject.toml", "build", *_BUILD_LITTER]
            ),
            compatible_runtimes=[RUNTIME],
            compatible_architectures=[ARCHITECTURE],
            description="zorder: typed Z-order addresses, BIGMIN and range decomposition (pure Python)",
        )
        self.powertools = lambda_.LayerVersion.from_layer_version_arn(
            self,
            "Powertools",
            f"arn:{Aws.PARTITION}:lambda:{Aws.REGION}:{constants.POWERTOOLS_LAYER_ACCOUNT}:layer:"
            f"{constants.POWERTOOLS_LAYER_NAME}:{constants.POWERTOOLS_LAYER_VERSION}",
        )
        # The stack is region-agnostic: a rule makes CloudFormation refuse, before creating anything,
        # a region where the public layer does not exist (the functions would fail to create there).
        CfnRule(
            Stack.of(self),
            "PowertoolsLayerRegion",
            assertions=[
                CfnRuleAssertion(
                    assert_=Fn.condition_contains(list(constants.POWERTOOLS_LAYER_REGIONS), Aws.REGION),
                    assert_description=f"{constants.POWERTOOLS_LAYER_NAME} is published in "
                    f"{', '.join(constants.POWERTOOLS_LAYER_REGIONS)} only: deploy to one of these regions",
                )
            ],
        )


def service_code(packages: Sequence[str]) -> lambda_.Code:
    """The `lambdas/` folder reduced to `tatami_functions` with only `common` and the given packages
    (names of `tatami_functions`' subpackages, e.g. `places`)."""
    keep = [
        f"!{FUNCTIONS_PACKAGE}",
        f"!{FUNCTIONS_PACKAGE}/__init__.py",
        *(
            pattern
            for package in ("common", *packages)
            for pattern in (f"!{FUNCTIONS_PACKAGE}/{package}", f"!{FUNCTIONS_PACKAGE}/{package}/**")
        ),
    ]
    return lambda_.Code.from_asset(str(LAMBDAS_DIR), exclude=["*", *keep, *_BUILD_LITTER])


class ServiceFunction(lambda_.Function):
    """A Python function of one service with Powertools, tracing and a log group with retention."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        layers: SharedLayers,
        handler: str,
        service: str,
        packages: Sequence[str] = (),
        uses_zorder: bool = False,
        environment: Mapping[str, str] | None = None,
        timeout: Duration | None = None,
        memory_size: int = 512,
        description: str | None = None,
    ) -> None:
        log_group = logs.LogGroup(
            scope,
            f"{construct_id}Logs",
            retention=logs.RetentionDays.ONE_MONTH,
            removal_policy=RemovalPolicy.DESTROY,
        )
        function_layers = [layers.powertools, *([layers.zorder] if uses_zorder else [])]
        super().__init__(
            scope,
            construct_id,
            runtime=RUNTIME,
            architecture=ARCHITECTURE,
            code=service_code(packages or (service,)),
            handler=handler,
            layers=function_layers,
            timeout=timeout or Duration.seconds(10),
            memory_size=memory_size,
            tracing=lambda_.Tracing.ACTIVE,
            log_group=log_group,
            description=description,
            environment={
                **PowertoolsSettings.environment(
                    service=service, metrics_namespace=constants.METRICS_NAMESPACE, log_level="INFO"
                ),
                **(environment or {}),
            },
        )
        self.service = service
        acknowledge(
            self,
            "AwsSolutions-IAM4",
            "AWSLambdaBasicExecutionRole only lets the function write its own logs.",
            LAMBDA_LOGS,
        )
        acknowledge(
            self,
            "AwsSolutions-IAM5",
            "X-Ray's PutTraceSegments/PutTelemetryRecords support no resource-level scoping.",
            "Resource::*",
        )


def add_environment(function: lambda_.Function, variables: Mapping[str, str]) -> None:
    """Add `variables` (a declaration's `environment(...)`) to a function created elsewhere (grants do)."""
    for name, value in variables.items():
        function.add_environment(name, value)
