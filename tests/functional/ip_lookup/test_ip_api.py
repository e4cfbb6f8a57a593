"""The lookup function's handler on moto: routes, status codes, messages (nothing here is measured)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from tatami.ip_loader.load import LoadOptions, load, prepare
from tatami.ip_loader.store import RangesStore
from tatami_functions.common.repository import forget_instances
from tatami_functions.ip_lookup import service
from tatami_functions.ip_lookup.settings import LookupSettings
from tatami_functions.ip_lookup.table import RANGES
from tests.support.lambda_runtime import FAKE_AWS, FakeContext, api_event

TABLE = "ranges"
CSV = """start,end,asn,organization
1.0.0.0,1.0.0.255,13335,"Cloudflare, Inc."
1.0.4.0,1.0.7.255,38803,Gtelecom Pty Ltd
9.255.255.0,10.0.0.255,1,Across a /8 boundary
2606:4700::,2606:4700:ffff:ffff:ffff:ffff:ffff:ffff,13335,"Cloudflare, Inc."
"""


@pytest.fixture
def call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The handler over a moto table loaded with CSV by the real loader."""
    env = {**FAKE_AWS, **LookupSettings.environment(table=TABLE)}
    env |= {"POWERTOOLS_SERVICE_NAME": "ip_lookup", "POWERTOOLS_TRACE_DISABLED": "true"}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with mock_aws():
        client = boto3.client("dynamodb")
        client.create_table(**RANGES.create_table_request(TABLE))
        forget_instances()  # a fresh execution environment
        monkeypatch.setattr(service, "_cache", None)
        from tatami_functions.ip_lookup.handler import handler

        def invoke(method: str, path: str, resource: str, body: Any = None) -> Any:
            params = {"address": path.rsplit("/", 1)[1]} if resource == "/ip/{address}" else None
            event = api_event(method, path, body=body, resource=resource, path_parameters=params)
            return handler(event, FakeContext("ip-lookup"))

        invoke.load = lambda text: _load(client, tmp_path, text)  # type: ignore[attr-defined]
        yield invoke
    forget_instances()


def _load(client: Any, folder: Path, text: str) -> int | None:
    path = folder / "ranges.csv"
    path.write_text(text)
    return load(prepare([path]), RangesStore(client, TABLE), LoadOptions(grace=0)).version


def get(call: Any, address: str) -> tuple[int, dict[str, Any], dict[str, Any]]:
    reply = call("GET", f"/ip/{address}", "/ip/{address}")
    headers = {k: v[0] for k, v in reply["multiValueHeaders"].items()}
    return reply["statusCode"], json.loads(reply["body"]), headers


def test_an_address_in_a_range_gets_its_range_and_metadata(call: Any) -> None:
    call.load(CSV)
    status, body, headers = get(call, "1.0.5.9")
    assert status == 200
    assert body == {
        "address": "1.0.5.9",
        "start": "1.0.4.0",
        "end": "1.0.7.255",
        "data": {"asn": "38803", "organization": "Gtelecom Pty Ltd"},
    }
    assert headers["X-Ip-Dataset-Version"] == "1"


def test_a_range_split_at_a_partition_boundary_answers_with_its_whole_bounds(call: Any) -> None:
    call.load(CSV)
    for address in ("9.255.255.0", "9.255.255.255", "10.0.0.0", "10.0.0.255"):
        status, body, _ = get(call, address)
        assert (status, body["start"], body["end"]) == (200, "9.255.255.0", "10.0.0.255"), address


def test_gaps_and_empty_partitions_are_404_with_a_message(call: Any) -> None:
    call.load(CSV)
    for address in (
        "1.0.1.0",
        "1.0.3.255",
        "1.255.255.255",
        "0.0.0.0",
        "255.255.255.255",
        "::",
        "2606:4701::",
    ):
        status, body, _ = get(call, address)
        assert status == 404, address
        assert body["message"].startswith(f"no data for {address}")


def test_ipv6_and_ipv4_mapped_addresses(call: Any) -> None:
    call.load(CSV)
    assert get(call, "2606:4700:4700::1111")[1]["start"] == "2606:4700::"
    status, body, _ = get(call, "::ffff:1.0.0.1")
    assert (status, body["address"], body["start"]) == (200, "1.0.0.1", "1.0.0.0")


@pytest.mark.parametrize("text", ["banana", "1.2.3", "1.2.3.256", "fe80::1%25eth0", "1.2.3.4x"])
def test_anything_that_is_not_an_address_is_a_400_naming_the_field(call: Any, text: str) -> None:
    status, body, _ = get(call, text)
    assert status == 400
    assert body["errors"][0]["field"] == "address" and body["message"].startswith("address: ")


def test_before_any_load_lookups_say_no_dataset(call: Any) -> None:
    status, body, headers = get(call, "1.0.0.1")
    assert status == 404 and "no IP dataset is loaded" in body["message"]
    assert headers["X-Ip-Dataset-Version"] == "0"


def test_a_batch_answers_each_slot_in_order(call: Any) -> None:
    call.load(CSV)
    reply = call(
        "POST", "/ip/lookups", "/ip/lookups", {"addresses": ["1.0.0.1", "nope", "1.0.2.0", 7, "2606:4700::"]}
    )
    body = json.loads(reply["body"])
    assert reply["statusCode"] == 200 and body["version"] == 1
    assert [r["status"] for r in body["results"]] == [200, 400, 404, 400, 200]
    assert body["results"][0]["data"]["asn"] == "13335"
    assert body["results"][1] == {
        "status": 400,
        "address": "nope",
        "message": "address: 'nope' is not an IPv4 or IPv6 address",
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"addresses": ["1.0.0.1"] * 101}, "addresses"),
        ({"addresses": []}, "addresses"),
        ({}, "addresses"),
        ("{not json", "body"),
    ],
)
def test_a_malformed_batch_is_a_400_naming_the_field(call: Any, body: Any, field: str) -> None:
    reply = call("POST", "/ip/lookups", "/ip/lookups", body)
    assert reply["statusCode"] == 400
    assert json.loads(reply["body"])["errors"][0]["field"] == field


def test_a_full_batch_of_100_is_answered(call: Any) -> None:
    call.load(CSV)
    addresses = [f"1.0.{n // 256}.{n % 256}" for n in range(0, 1000, 10)]
    body = json.loads(call("POST", "/ip/lookups", "/ip/lookups", {"addresses": addresses})["body"])
    assert len(body["results"]) == 100
    assert {r["status"] for r in body["results"]} == {200, 404}


def test_a_table_dynamodb_refuses_is_a_503_not_a_crash(call: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in LookupSettings.environment(table="no-such-table").items():
        monkeypatch.setenv(name, value)
    forget_instances()
    status, body, headers = get(call, "1.0.0.1")
    assert status == 503 and headers["Retry-After"] == "5"
    assert body == {
        "message": "cannot read the IP ranges' dataset alias: DynamoDB refused the request "
        "(ResourceNotFoundException); retry after 5 s"
    }
