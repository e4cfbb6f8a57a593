"""Lambda functions and the layers they share, built without Docker.

Each function's asset holds the modules of `tatami_functions` its handler imports, transitively, and
nothing else (`import_closure`): no other service's code, no module of `common` it never loads, no
CLI or local-cloud helper. Handlers import `tatami_functions.places.api` the same way in Lambda, in
the local cloud and in tests; the layers (Powertools, zorder/zindex) and the runtime's boto3 are
not part of the asset.
A function's `environment` comes from its service's settings declaration
(`tatami_functions.common.settings`: `XSettings.environment(...)`), never from variable names written here.
"""

from __future__ import annotations

import json
import modulefinder
from collections.abc import Iterable, Mapping
from importlib.metadata import PackageNotFoundError, PathDistribution, version
from pathlib import Path

from aws_cdk import AssetHashType, Duration, RemovalPolicy, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra import constants
from infra.constructs.compiled_asset import SourceSyntaxError, compiled_code, compiled_layer_code
from infra.nag import acknowledge
from infra.paths import LAMBDAS_DIR, POWERTOOLS_LAYER_DIR, ZORDER_LAYER_DIR
from tatami_functions.common.settings import PowertoolsSettings

RUNTIME = lambda_.Runtime.PYTHON_3_13  # constants.LAMBDA_PYTHON
ARCHITECTURE = lambda_.Architecture.ARM_64
FUNCTIONS_PACKAGE = "tatami_functions"  # the one package under lambdas/: every handler string starts with it


class SharedLayers(Construct):
    """The `zorder` layer (built from layers/zorder) and the Powertools layer (built from the pins)."""

    def __init__(self, scope: Construct, construct_id: str) -> None:
        super().__init__(scope, construct_id)
        self.zorder = lambda_.LayerVersion(
            self,
            "Zorder",
            code=compiled_layer_code(ZORDER_LAYER_DIR),
            compatible_runtimes=[RUNTIME],
            compatible_architectures=[ARCHITECTURE],
            description="zorder: typed Z-order addresses, BIGMIN and range decomposition (pure Python)",
        )
        held = pinned_layer_distributions()
        self.powertools = lambda_.LayerVersion(
            self,
            "Powertools",
            # The bytecode stays: build.py compiled it for the runtime's Python, and Lambda's /opt is
            # read-only, so without it every cold start would compile Powertools and pydantic. Its
            # bytes vary between builds (marshal), so the asset is known by its pins instead.
            code=lambda_.Code.from_asset(
                str(POWERTOOLS_LAYER_DIR),
                exclude=[".built"],
                asset_hash_type=AssetHashType.CUSTOM,
                asset_hash=json.dumps([RUNTIME.name, ARCHITECTURE.name, sorted(held.items())]),
            ),
            compatible_runtimes=[RUNTIME],
            compatible_architectures=[ARCHITECTURE],
            description=f"{', '.join(f'{name} {v}' for name, v in sorted(held.items()))} "
            "(layers/powertools/build.py, from constraints.txt)"[:256],
        )


def pinned_layer_distributions() -> dict[str, str]:
    """The distributions of the built Powertools layer, each at the version this venv has installed:
    a missing layer or one built from other pins stops synthesis (`make install` rebuilds it)."""
    held = {
        dist.metadata["Name"]: dist.version
        for dist in map(PathDistribution, (POWERTOOLS_LAYER_DIR / "python").glob("*.dist-info"))
    }
    stale = sorted(f"{name} {v}" for name, v in held.items() if v != _installed(name))
    if "aws_lambda_powertools" not in held or stale:
        raise RuntimeError(
            f"the Powertools layer in {POWERTOOLS_LAYER_DIR} is missing or was built from other pins "
            f"({', '.join(stale) or 'no Powertools'}): run `make install`"
        )
    return held


def _installed(name: str) -> str | None:
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def import_closure(modules: Iterable[str], root: Path = LAMBDAS_DIR) -> list[str]:
    """The files under `root` that `modules` import, transitively, relative to `root`: the modules
    (packages' `__init__.py` included) and the data folders beside them (folders without Python
    files, such as the SQL of `olap/queries`, which code reads by path).

    `modulefinder` reads every code object of a module, so an import inside a function counts as
    much as one at the top; it finds only what is under `root`, so the standard library, the
    layers and third-party packages are left out. A module outside `root` (the Z-index maintainer's
    handler, in its layer) adds nothing.

    >>> import_closure(["tatami_functions.common.text"])
    ['tatami_functions/__init__.py', 'tatami_functions/common/__init__.py', 'tatami_functions/common/text.py']
    """
    finder = modulefinder.ModuleFinder(path=[str(root)])
    for module in modules:
        try:
            finder.import_hook(module)
        except ImportError:
            continue  # not under root: shipped by a layer
        except SyntaxError as exc:  # modulefinder compiles what it reads
            raise SourceSyntaxError.of(exc) from None
    located = (getattr(module, "__file__", None) for module in finder.modules.values())
    files = {Path(file) for file in located if file and Path(file).is_relative_to(root)}
    data = {
        folder
        for file in files
        for folder in file.parent.iterdir()
        if folder.is_dir() and folder.name != "__pycache__" and not any(folder.rglob("*.py"))
    }
    return sorted(str(path.relative_to(root)) for path in files | data)


def service_code(handler: str, generated: Mapping[str, bytes] | None = None) -> lambda_.Code:
    """The asset of a function: the import closure of its handler's module and the files `generated`
    at synthesis (path in the asset -> bytes), compiled (`compiled_asset`)."""
    closure = import_closure([handler.rpartition(".")[0]])
    return compiled_code(LAMBDAS_DIR, [f"{FUNCTIONS_PACKAGE}/__init__.py", *closure], generated)


class ServiceFunction(lambda_.Function):
    """A Python function of one service with Powertools, tracing and a log group with retention.

    Its role may write its own log group and nothing else of CloudWatch Logs: not CDK's default
    `AWSLambdaBasicExecutionRole` (`logs:*` writes on every group, so any function could forge
    another's EMF lines, which the lag alarms trust).

    Its asset is the import closure of `handler`'s module, and the files `generated` at synthesis
    (the docs function's OpenAPI document).
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        layers: SharedLayers,
        handler: str,
        service: str,
        generated: Mapping[str, bytes] | None = None,
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
            code=service_code(handler, generated),
            handler=handler,
            layers=function_layers,
            timeout=timeout or Duration.seconds(10),
            memory_size=memory_size,
            tracing=lambda_.Tracing.ACTIVE,
            log_group=log_group,
            description=description,
            environment={
                **PowertoolsSettings.environment(
                    service=service,
                    metrics_namespace=constants.metrics_namespace(Stack.of(scope).stack_name),
                    log_level="INFO",
                ),
                **(environment or {}),
            },
        )
        self.service = service
        self._write_only_own_logs(log_group)
        acknowledge(
            self,
            "AwsSolutions-IAM5",
            "X-Ray's PutTraceSegments/PutTelemetryRecords support no resource-level scoping.",
            "Resource::*",
        )
        acknowledge(
            self,
            "AwsSolutions-L1",
            "Python 3.13, not the newest runtime, on purpose: the tests run the functions on the "
            "runtime's minor version, and 3.13 is the newest these machines install.",
        )

    def _write_only_own_logs(self, log_group: logs.LogGroup) -> None:
        """CreateLogStream and PutLogEvents on its own group, instead of the managed policy CDK gives
        every role it makes (AWSLambdaBasicExecutionRole: log writes on every group). The role keeps its
        construct id, so its logical ID: its managed policies are emptied rather than the role made anew."""
        assert isinstance(self.role, iam.Role)
        log_group.grant_write(self.role)
        resource = self.role.node.default_child
        assert isinstance(resource, iam.CfnRole)
        resource.managed_policy_arns = None


def add_environment(function: lambda_.Function, variables: Mapping[str, str]) -> None:
    """Add `variables` (a declaration's `environment(...)`) to a function created elsewhere (grants do)."""
    for name, value in variables.items():
        function.add_environment(name, value)
