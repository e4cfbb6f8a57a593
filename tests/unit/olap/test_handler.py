"""The export function's wiring: the event picks tables and kind, and a failed table fails the
invocation after the others were done."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from tatami_functions.olap import handler as export_handler
from tatami_functions.olap.exceptions import ExportError, SettingsError
from tatami_functions.olap.repository import OlapRepository
from tatami_functions.olap.service import ExportOutcome
from tatami_functions.olap.settings import ExportSettings
from tests.support.lambda_runtime import FakeContext

ENV = {
    **ExportSettings.environment(
        tables={"orders": "arn:t/Orders", "device_logs": "arn:t/Logs"},
        bucket="olap-bucket",
        database="tatami_olap",
        full_every=timedelta(hours=24),
    ),
    "POWERTOOLS_METRICS_NAMESPACE": "Tatami",
    "POWERTOOLS_SERVICE_NAME": "olap",
}
CONTEXT = FakeContext("olap-export")


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(export_handler, "repository", lambda: OlapRepository.of("dynamodb", "s3", "glue"))
    # The module's Metrics read their namespace at import, maybe before this test's environment.
    monkeypatch.setattr(export_handler.metrics.provider, "namespace", "Tatami")
    seen: list[dict[str, Any]] = []

    def fake_run(path: str) -> Any:
        def run(settings: Any, *args: Any, **kwargs: Any) -> list[ExportOutcome]:
            seen.append({"path": path, "tables": list(settings.tables), **kwargs})
            return [
                ExportOutcome(key, "skip" if key != "broken" else "failed", "ok") for key in settings.tables
            ]

        return run

    monkeypatch.setattr(export_handler, "run_aws", fake_run("aws"))
    return seen


def test_a_scheduled_event_runs_every_table_with_its_event_id_as_the_token_seed(
    calls: list[dict[str, Any]],
) -> None:
    event = {"id": "evt-1", "detail-type": "Scheduled Event", "source": "aws.events"}
    result = export_handler.handler(event, CONTEXT)
    assert calls == [{"path": "aws", "tables": ["orders", "device_logs"], "kind": "auto", "seed": "evt-1"}]
    assert result == {
        "exports": [
            {"table": "orders", "action": "skip", "reason": "ok"},
            {"table": "device_logs", "action": "skip", "reason": "ok"},
        ]
    }


@pytest.mark.filterwarnings("ignore:No application metrics")
def test_unknown_tables_and_failed_tables_fail_the_invocation(
    calls: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SettingsError, match="no exported table"):
        export_handler.handler({"tables": ["carts"]}, CONTEXT)
    monkeypatch.setenv(ExportSettings.name_of("tables"), json.dumps({"orders": "arn:t/Orders"}))
    monkeypatch.setattr(
        export_handler, "run_aws", lambda *a, **k: [ExportOutcome("orders", "failed", "PITR is off")]
    )
    with pytest.raises(ExportError, match="orders: failed \\(PITR is off\\)"):
        export_handler.handler({}, CONTEXT)


def test_exports_failed_since_the_run_before_count_as_failures_and_the_stalest_age_is_reported(
    calls: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The alarms' two export signals: an export DynamoDB marked FAILED after its start returned (the
    run does not fail for it: a retry would start nothing), and how old the stalest table's data is."""
    outcomes = [
        ExportOutcome("orders", "skip", "up to date", failed_later=2, age_seconds=7200.0),
        ExportOutcome("device_logs", "full", "no full export yet", age_seconds=0.0),
    ]
    monkeypatch.setattr(export_handler, "run_aws", lambda *a, **k: outcomes)
    export_handler.handler({}, CONTEXT)
    emitted = [json.loads(line) for line in capsys.readouterr().out.splitlines() if '"_aws"' in line]
    (document,) = emitted
    total = {
        name: sum(v if isinstance(v, list) else [v])
        for name, v in document.items()
        if name.startswith("Export")
    }
    assert total == {"Exports_failed": 2, "Exports_skip": 1, "Exports_full": 1, "ExportAgeSeconds": 7200}
