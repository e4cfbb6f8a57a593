"""The public Powertools layer: the version the tests run, in the regions and partition it exists in."""

from __future__ import annotations

import json
import tomllib
from importlib.metadata import version

from infra import constants
from infra.paths import REPO_ROOT
from tests.support.synthesis import Synthesized


def test_the_layer_is_the_release_pyproject_pins() -> None:
    dependencies = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (pin,) = [d for d in dependencies if d.startswith("aws-lambda-powertools")]
    assert pin.endswith(f"=={constants.POWERTOOLS_VERSION}")
    assert version("aws-lambda-powertools") == constants.POWERTOOLS_VERSION
    layer = constants.POWERTOOLS_LAYER_VERSIONS[constants.POWERTOOLS_VERSION]
    assert layer == constants.POWERTOOLS_LAYER_VERSION


def test_a_deployment_outside_the_layers_regions_is_refused_before_anything_is_created(
    synthesized: Synthesized,
) -> None:
    (assertion,) = synthesized.template["Rules"]["PowertoolsLayerRegion"]["Assertions"]
    regions, region = assertion["Assert"]["Fn::Contains"]
    assert region == {"Ref": "AWS::Region"}
    assert regions == list(constants.POWERTOOLS_LAYER_REGIONS)
    assert "us-east-1" in regions and "ap-northeast-1" in regions
    # arm64 layers are not listed for ca-west-1; China and GovCloud publish from other accounts.
    assert not {"ca-west-1", "cn-north-1", "us-gov-west-1"} & set(regions)


def test_the_app_targets_only_the_partition_of_the_layers_account() -> None:
    context = json.loads((REPO_ROOT / "cdk.json").read_text())["context"]
    assert context["@aws-cdk/core:target-partitions"] == ["aws"]


def test_every_function_takes_the_layer_from_its_own_region_and_partition(synthesized: Synthesized) -> None:
    for logical_id, function in synthesized.resources("AWS::Lambda::Function").items():
        arns = [json.dumps(layer) for layer in function["Properties"]["Layers"] if "Fn::Join" in layer]
        (arn,) = arns
        assert '{"Ref": "AWS::Partition"}' in arn and '{"Ref": "AWS::Region"}' in arn, logical_id
        assert f"{constants.POWERTOOLS_LAYER_ACCOUNT}:layer:{constants.POWERTOOLS_LAYER_NAME}:36" in arn
