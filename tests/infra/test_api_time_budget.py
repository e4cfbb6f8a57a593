"""Every API function outlives its SDK clients' time budget (common/dependencies.py), so a frozen or
unreachable dependency ends as the function's own 503, never as its timeout (API Gateway's 502)."""

from __future__ import annotations

import json

from tatami_functions.common.clients import API_CALLS
from tatami_functions.common.dependencies import worst_case_seconds
from tests.support.synthesis import Synthesized


def test_every_api_function_outlives_its_clients_time_budget(synthesized: Synthesized) -> None:
    methods = synthesized.resources("AWS::ApiGateway::Method").values()
    functions = synthesized.resources("AWS::Lambda::Function")
    served = {
        logical_id
        for method in methods
        for logical_id in functions
        if f'"{logical_id}"' in json.dumps(method["Properties"].get("Integration", {}).get("Uri", ""))
    }
    assert len(served) >= 10
    for logical_id in served:
        timeout = functions[logical_id]["Properties"].get("Timeout", 3)
        assert timeout > worst_case_seconds(API_CALLS), logical_id
