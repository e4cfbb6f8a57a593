"""What only the CDK app needs: the Lambda runtime, the Powertools release, the API stage, the names
of a stage's metrics namespace and of its services' Critical alarms.

The stack's name and output names, which the CLI reads too, are its public contract:
tatami_functions/stack_outputs.py.
"""

from __future__ import annotations

from importlib.metadata import version

# Lambda's Python runtime: the venv runs the same minor version (the Makefile's PYTHON_MINOR), so the
# tests run the functions on the interpreter Lambda runs them on (tests/infra/test_runtime_under_test.py).
LAMBDA_PYTHON = "python3.13"
# The Powertools layer is built from the wheels constraints.txt pins (layers/powertools/build.py, run
# by `make install`), so it holds the Powertools and pydantic the tests import.
POWERTOOLS_VERSION = version("aws-lambda-powertools")

API_STAGE = "v1"


def metrics_namespace(stack_name: str) -> str:
    """The namespace of a stage's custom metrics (its functions' EMF lines, and the alarms on them):
    the stack's name, so two stages in one account and region never feed each other's alarms (the
    stack without a stage keeps the namespace `Tatami` it always had).

    >>> metrics_namespace("Tatami"), metrics_namespace("Tatami-dev")
    ('Tatami', 'Tatami-dev')
    """
    return stack_name


def critical_alarm_name(stack_name: str, service: str) -> str:
    """The composite alarm that pages for a service's Critical alarms and rolls back its deployments.

    The monitoring stack builds it; the service stack's deployment groups name it (a name, not a
    CloudFormation reference, so neither stack waits on the other).

    >>> critical_alarm_name("TatamiDev", "places")
    'TatamiDev-places-Critical'
    """
    return f"{stack_name}-{service}-Critical"
