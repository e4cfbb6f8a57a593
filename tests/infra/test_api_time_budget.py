"""Every API function outlives its SDK clients' time budget (common/dependencies.py), so a frozen or
unreachable dependency ends as the function's own 503, never as its timeout (API Gateway's 502)."""

from __future__ import annotations

from tatami_functions.common.clients import API_CALLS
from tatami_functions.common.dependencies import worst_case_seconds
from tests.support.synthesis import Synthesized


def test_every_api_function_outlives_its_clients_time_budget(synthesized: Synthesized) -> None:
    methods = synthesized.resources("AWS::ApiGateway::Method").values()
    functions = synthesized.resources("AWS::Lambda::Function")
    served = {
        synthesized.invoked_function(method["Properties"]["Integration"]["Uri"])
        for method in methods
        if method["Properties"].get("Integration", {}).get("Type") == "AWS_PROXY"
    }
    assert len(served) >= 10
    for logical_id in served:
        assert logical_id is not None
        timeout = functions[logical_id]["Properties"].get("Timeout", 3)
        assert timeout > worst_case_seconds(API_CALLS), logical_id
