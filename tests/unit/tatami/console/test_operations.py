"""tatami/console/operations.py: invocations summarized."""

from __future__ import annotations

from tatami.console.operations import invocations
from tatami.local.functions.pool import Invocation


def test_invocations_newest_first_with_errors_durations_and_memory() -> None:
    found = invocations(
        "Fn",
        128,
        [
            Invocation("a", True, duration_ms=10.0, max_memory_used_mb=70, started_at=1.0),
            Invocation("b", False, error={"errorType": "ValueError"}, duration_ms=30.0, started_at=2.0),
            Invocation("c", True, duration_ms=20.0, max_memory_used_mb=75, started_at=3.0),
        ],
    )
    assert (found["count"], found["errors"], found["median_ms"], found["max_ms"]) == (3, 1, 20.0, 30.0)
    assert found["max_memory_used_mb"] == 75
    assert [i["request_id"] for i in found["recent"]] == ["c", "b", "a"]
    assert found["recent"][1]["error"] == "ValueError"
