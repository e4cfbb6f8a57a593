"""tatami/local/engines/faults.py: injected errors go through the SDK's own retries, as AWS's would."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import EndpointConnectionError

from tatami.local.engines import faults
from tatami.local.engines.faults import Crash, FaultInjector, FaultPlan


def test_a_plan_survives_its_trip_through_the_environment() -> None:
    plan = FaultPlan(rate=0.25, operations=("dynamodb.UpdateItem",), crash_after=3, seed=9)
    assert FaultPlan.from_json(plan.to_json()) == plan
    crashes = FaultPlan(crashes=(Crash("after", "dynamodb.GetItem", "votes"),), ledger="/tmp/ledger")
    assert FaultPlan.from_json(crashes.to_json()) == crashes


def test_each_crash_fires_once_across_the_processes_sharing_its_ledger(tmp_path: Any) -> None:
    plan = FaultPlan(crashes=(Crash("before", "dynamodb.GetItem"), Crash("after", "dynamodb.GetItem")))
    shared = replace(plan, ledger=str(tmp_path))
    first, second = FaultInjector(shared), FaultInjector(shared)  # two processes of one function
    claims = [first._claim(0), second._claim(0), second._claim(1), first._claim(1)]
    assert claims == [True, False, True, False]
    assert FaultInjector(plan)._claim(0) and FaultInjector(plan)._claim(0)  # no ledger: every time
    with pytest.raises(ValueError, match="'during' must be 'before' or 'after'"):
        Crash("during", "dynamodb.GetItem")


def test_injected_throttling_is_retried_by_botocore_then_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    import botocore.session  # faults.install patches it; the monkeypatch restores it afterwards

    monkeypatch.setattr(botocore.session.Session, "create_client", botocore.session.Session.create_client)
    injector = faults.install(FaultPlan(rate=1.0, errors=("ThrottlingException",), operations=("dynamodb",)))
    client = boto3.client(
        "dynamodb",
        endpoint_url="http://127.0.0.1:9",  # never reached: every call is answered by the injector
        region_name="us-east-1",
        aws_access_key_id="k",
        aws_secret_access_key="s",
        config=Config(retries={"mode": "standard", "max_attempts": 3}),
    )
    with pytest.raises(client.exceptions.ClientError) as raised:
        client.list_tables()
    assert raised.value.response["Error"]["Code"] == "ThrottlingException"
    retries = raised.value.response["ResponseMetadata"]["RetryAttempts"]
    assert retries >= 2
    assert injector.injected == {"ThrottlingException": retries + 1}  # each try, each retry injected


def test_a_switched_plan_fails_calls_only_while_its_file_exists(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import botocore.session

    monkeypatch.setattr(botocore.session.Session, "create_client", botocore.session.Session.create_client)
    switch = tmp_path / "faults.json"
    injector = faults.install(FaultPlan(switch=str(switch)))
    client = boto3.client(
        "dynamodb",
        endpoint_url="http://127.0.0.1:9",  # nothing listens: an unarmed call fails to connect
        region_name="us-east-1",
        aws_access_key_id="k",
        aws_secret_access_key="s",
        config=Config(retries={"mode": "standard", "max_attempts": 2}, connect_timeout=1),
    )
    switch.write_text(FaultPlan(rate=1.0, errors=("ThrottlingException",)).to_json())
    with pytest.raises(client.exceptions.ClientError, match="ThrottlingException"):
        client.list_tables()
    switch.write_text(FaultPlan(rate=1.0, errors=(faults.UNREACHABLE,)).to_json())
    with pytest.raises(EndpointConnectionError):
        client.list_tables()
    injected = dict(injector.injected)
    assert injected.keys() == {"ThrottlingException", faults.UNREACHABLE}
    switch.unlink()
    with pytest.raises(EndpointConnectionError):  # the real port, not an injected fault
        client.list_tables()
    assert injector.injected == injected
