"""The worker's botocore hook: a refused call raises AWS's error before any request leaves; `soft`
logs the refusal and lets the call go on; every decision is written once to the usage file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import botocore.handlers
import pytest
from botocore.exceptions import ClientError, EndpointConnectionError

from tatami.local.iam import guard

TABLE = "arn:aws:dynamodb:us-east-1:000000000000:table/T"
POLICY = {
    "principal": "arn:aws:iam::000000000000:role/R",
    "identity": [{"effect": "Allow", "actions": ["dynamodb:GetItem"], "resources": [TABLE]}],
    "resources": {},
}


@pytest.fixture
def installed(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Path]:
    usage = tmp_path / "usage.jsonl"
    config: dict[str, Any] = {
        "mode": request.param,
        "policy": POLICY,
        "region": "us-east-1",
        "account": "000000000000",
        "session_arn": "arn:aws:sts::000000000000:assumed-role/R/F",
        "usage_file": str(usage),
    }
    before = list(botocore.handlers.BUILTIN_HANDLERS)
    guard.install(config)
    yield usage
    botocore.handlers.BUILTIN_HANDLERS[:] = before  # other tests' sessions stay unguarded


def client() -> Any:
    # Nothing listens on port 9: a call that gets past the guard fails to connect instead.
    return boto3.Session(aws_access_key_id="k", aws_secret_access_key="s", region_name="us-east-1").client(
        "dynamodb",
        endpoint_url="http://127.0.0.1:9",
        config=botocore.config.Config(retries={"max_attempts": 0}),
    )


@pytest.mark.parametrize("installed", ["enforce"], indirect=True)
def test_enforce_raises_access_denied_before_the_request_is_sent(installed: Path) -> None:
    with pytest.raises(ClientError) as refused:
        client().query(
            TableName="T", KeyConditionExpression="k = :k", ExpressionAttributeValues={":k": {"S": "a"}}
        )
    error = refused.value.response["Error"]
    assert error["Code"] == "AccessDeniedException"
    assert error["Message"] == (
        "User: arn:aws:sts::000000000000:assumed-role/R/F is not authorized to perform: dynamodb:Query on "
        f"resource: {TABLE} because no identity-based policy allows the dynamodb:Query action"
    )
    with pytest.raises(EndpointConnectionError):  # allowed: it goes to the (absent) endpoint
        client().get_item(TableName="T", Key={"k": {"S": "a"}})
    lines = [json.loads(line) for line in installed.read_text().splitlines()]
    assert lines == [
        {"action": "dynamodb:Query", "resource": TABLE, "allowed": False},
        {"action": "dynamodb:GetItem", "resource": TABLE, "allowed": True},
    ]


@pytest.mark.parametrize("installed", ["soft"], indirect=True)
def test_soft_logs_and_lets_the_call_go_on(installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(EndpointConnectionError):
        client().put_item(TableName="T", Item={"k": {"S": "a"}})
    assert "IAM (soft): PutItem would be refused in AWS" in capsys.readouterr().err


def test_off_installs_nothing() -> None:
    before = list(botocore.handlers.BUILTIN_HANDLERS)
    assert guard.install({"mode": "off"}) is None
    assert before == botocore.handlers.BUILTIN_HANDLERS


@pytest.mark.parametrize("installed", ["enforce"], indirect=True)
def test_a_local_stand_ins_call_is_authorized_as_the_api_it_serves(installed: Path) -> None:
    """The export's scan (`engines.exports`) needs the export permission on the table, not Scan."""
    marked = client()

    def mark(context: dict[str, Any], **_: Any) -> None:
        context["local_emulation"] = {"action": "dynamodb:GetItem", "resource": TABLE}

    marked.meta.events.register_first("before-parameter-build", mark)
    with pytest.raises(EndpointConnectionError):  # allowed: GetItem on the table, though it is a Scan
        marked.scan(TableName="Other")
    with pytest.raises(
        ClientError, match="dynamodb:Scan on resource: arn:aws:dynamodb:us-east-1:000000000000:table/Other"
    ):
        client().scan(TableName="Other")
    decisions = [json.loads(line) for line in installed.read_text().splitlines()]
    assert {"action": "dynamodb:GetItem", "resource": TABLE, "allowed": True} in decisions
