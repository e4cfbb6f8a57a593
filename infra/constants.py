"""What only the CDK app needs: the Lambda runtime, the public Powertools layer, the API stage.

The stack's name and output names, which the CLI reads too, are its public contract:
tatami_functions/common/stack_outputs.py.
"""

from __future__ import annotations

from importlib.metadata import version

# Lambda runtime and the public Powertools layer. pyproject.toml pins the Powertools release (the
# one place to bump it); the layer is the version AWS published for that release, so what the tests
# run locally is what runs in Lambda. Synthesis fails on a release this table does not know.
LAMBDA_PYTHON = "python3.14"
POWERTOOLS_LAYER_ACCOUNT = "017000801446"
POWERTOOLS_LAYER_NAME = "AWSLambdaPowertoolsPythonV3-python314-arm64"
POWERTOOLS_LAYER_VERSIONS = {"3.31.1": 36}  # release -> layer version (Powertools' docs list them)
POWERTOOLS_VERSION = version("aws-lambda-powertools")
if POWERTOOLS_VERSION not in POWERTOOLS_LAYER_VERSIONS:
    raise RuntimeError(
        f"aws-lambda-powertools {POWERTOOLS_VERSION} has no layer version in infra/constants.py: add the "
        "version Powertools published for it (its docs' Lambda layer table) to POWERTOOLS_LAYER_VERSIONS"
    )
POWERTOOLS_LAYER_VERSION = POWERTOOLS_LAYER_VERSIONS[POWERTOOLS_VERSION]
# Regions where Powertools publishes its arm64 layers (its docs' table): the stack's rule refuses a
# deployment anywhere else, where the layer ARN would not resolve. The China and GovCloud partitions
# publish from other accounts with other versions, so cdk.json targets the `aws` partition only.
POWERTOOLS_LAYER_REGIONS = (
    "af-south-1", "ap-east-1", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3", "ap-south-1",
    "ap-south-2", "ap-southeast-1", "ap-southeast-2", "ap-southeast-3", "ap-southeast-4",
    "ap-southeast-5", "ap-southeast-7", "ca-central-1", "eu-central-1", "eu-central-2", "eu-north-1",
    "eu-south-1", "eu-south-2", "eu-west-1", "eu-west-2", "eu-west-3", "il-central-1", "me-central-1",
    "me-south-1", "mx-central-1", "sa-east-1", "us-east-1", "us-east-2", "us-west-1", "us-west-2",
)  # fmt: skip

API_STAGE = "v1"
METRICS_NAMESPACE = "Tatami"
