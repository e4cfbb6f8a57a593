"""Template tests that assert what would hurt in production (STYLE.md item 11)."""

from __future__ import annotations

import sys

from infra import constants
from tatami_functions import stack_outputs
from tests.support.synthesis import Synthesized


def _statements(synthesized: Synthesized) -> list[dict]:
    return [
        s
        for policy in synthesized.resources("AWS::IAM::Policy").values()
        for s in policy["Properties"]["PolicyDocument"]["Statement"]
    ]


def test_every_function_runs_the_pinned_runtime_with_tracing(synthesized: Synthesized) -> None:
    functions = synthesized.resources("AWS::Lambda::Function")
    assert functions
    for logical_id, function in functions.items():
        props = function["Properties"]
        assert props["Runtime"] == constants.LAMBDA_PYTHON, logical_id
        assert props["TracingConfig"] == {"Mode": "Active"}, logical_id
        assert "LogGroup" in props["LoggingConfig"], logical_id


def test_log_groups_have_retention(synthesized: Synthesized) -> None:
    for logical_id, group in synthesized.resources("AWS::Logs::LogGroup").items():
        assert group["Properties"].get("RetentionInDays"), logical_id


def test_no_wildcard_actions_and_wildcard_resources_only_for_xray(synthesized: Synthesized) -> None:
    for statement in _statements(synthesized):
        actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
        assert not any(action == "*" or action.endswith(":*") for action in actions), statement
        if statement["Resource"] == "*":
            assert all(action.startswith("xray:") for action in actions), statement


def test_every_method_requires_iam_and_validates(synthesized: Synthesized) -> None:
    methods = synthesized.resources("AWS::ApiGateway::Method")
    assert methods
    for logical_id, method in methods.items():
        props = method["Properties"]
        assert props["AuthorizationType"] == "AWS_IAM", logical_id
        assert "RequestValidatorId" in props, logical_id
        assert props["Integration"]["Type"] == "AWS_PROXY", logical_id


def test_stage_throttles_logs_and_traces(synthesized: Synthesized) -> None:
    (stage,) = synthesized.resources("AWS::ApiGateway::Stage").values()
    props = stage["Properties"]
    assert props["StageName"] == constants.API_STAGE
    assert props["TracingEnabled"] is True
    assert "DestinationArn" in props["AccessLogSetting"]
    settings = props["MethodSettings"][0]
    assert settings["ThrottlingRateLimit"] > 0 and settings["ThrottlingBurstLimit"] > 0
    assert settings["LoggingLevel"] == "ERROR"


def test_openapi_document_is_published(synthesized: Synthesized) -> None:
    paths = {r["Properties"]["PathPart"] for r in synthesized.resources("AWS::ApiGateway::Resource").values()}
    assert "openapi.json" in paths
    assert stack_outputs.OUTPUT_OPENAPI_URL in synthesized.template["Outputs"]


def test_zorder_layer_ships_the_package_under_python_with_its_bytecode(synthesized: Synthesized) -> None:
    (layer,) = [v for k, v in synthesized.resources("AWS::Lambda::LayerVersion").items() if "Zorder" in k]
    asset = layer["Properties"]["Content"]["S3Key"].removesuffix(".zip")
    folder = synthesized.cdk_out / f"asset.{asset}"
    assert (folder / "python" / "zorder" / "__init__.py").is_file()
    assert not (folder / "pyproject.toml").exists()
    # Compiled by this Python (the runtime's minor version): Lambda's /opt is read-only.
    tag = f"cpython-{sys.version_info.major}{sys.version_info.minor}"
    assert (folder / "python" / "zindex" / "__pycache__" / f"search.{tag}.pyc").is_file()


def test_every_function_asset_ships_its_own_packages_with_their_bytecode(synthesized: Synthesized) -> None:
    """Lambda's /var/task is read-only too: a module without bytecode compiles at every cold start."""
    tag = f"cpython-{sys.version_info.major}{sys.version_info.minor}"
    for function in synthesized.resources("AWS::Lambda::Function").values():
        key = function["Properties"]["Code"]["S3Key"].removesuffix(".zip")
        asset = synthesized.cdk_out / f"asset.{key}"
        package = asset / "tatami_functions"
        sources = list(package.rglob("*.py"))
        module, _, _ = function["Properties"]["Handler"].rpartition(".")
        if module.startswith("tatami_functions."):  # the Z-index maintainer's is in its layer
            assert asset / f"{module.replace('.', '/')}.py" in sources, key
        missing = [
            path for path in sources if not (path.parent / "__pycache__" / f"{path.stem}.{tag}.pyc").is_file()
        ]
        assert missing == [], key


def test_stack_stays_well_under_cloudformations_resource_limit(synthesized: Synthesized) -> None:
    assert len(synthesized.template["Resources"]) < 450  # the hard limit is 500 per stack
