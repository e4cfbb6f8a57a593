"""The counters routes end to end on moto: creation and growth, increments, reads, idempotency, errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Call = Callable[..., tuple[int, dict[str, Any], dict[str, str]]]  # the `call` fixture


def shard_items(aws: Any, name: str) -> dict[str, int]:
    items = aws.scan(TableName="shards")["Items"]
    return {i["pk"]["S"]: int(i["count"]["N"]) for i in items if i["pk"]["S"].startswith(f"{name}#")}


def test_put_sizes_a_counter_by_the_seeds_formula_and_only_grows(call: Call) -> None:
    status, body, _ = call("PUT", "/counters/sized", {"target_wcu": 100_000, "safety_factor": 1.5})
    assert (status, body["shards"], body["outcome"]) == (201, 150, "created")
    assert call("PUT", "/counters/sized", {"target_wcu": 100_000, "safety_factor": 1.5})[:2] == (
        200,
        {"name": "sized", "shards": 150, "target_wcu": 100_000, "safety_factor": 1.5, "outcome": "unchanged"},
    )
    status, body, _ = call("PUT", "/counters/sized", {"target_wcu": 100_000, "safety_factor": 2})
    assert (status, body["shards"], body["outcome"]) == (200, 200, "grown")
    status, body, _ = call("PUT", "/counters/sized", {"target_wcu": 1000})
    assert status == 409 and "target_wcu" in body["message"] and "200 shards" in body["message"]


def test_put_without_a_body_takes_the_deployments_defaults(call: Call) -> None:
    status, body, _ = call("PUT", "/counters/plain")
    assert (status, body["shards"], body["target_wcu"], body["safety_factor"]) == (201, 2, 1000, 1.5)
    call("PUT", "/counters/plain", {"target_wcu": 10_000})
    status, body, _ = call("PUT", "/counters/plain", {})  # "make sure it exists": no shrink, no 409
    assert (status, body["shards"], body["outcome"]) == (200, 15, "unchanged")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"target_wcu": "many"}, "target_wcu"),
        ({"target_wcu": 0}, "target_wcu"),
        ({"target_wcu": 2_000_000}, "target_wcu"),  # 3,000 shards: more than a read sums
        ({"safety_factor": 0.5}, "safety_factor"),
        ({"shards": 4}, "shards"),
        ("{not json", "body"),
    ],
)
def test_put_rejects_bad_specs_naming_the_field(call: Call, body: Any, field: str) -> None:
    status, response, _ = call("PUT", "/counters/votes-A", body)
    assert status == 400 and response["message"].startswith(f"{field}:"), response


def test_a_whole_number_written_as_2_0_counts_as_2(call: Call) -> None:
    """JSON Schema's integer (what the document declares) includes 2.0; "2" and true stay refused."""
    assert call("PUT", "/counters/whole", {"target_wcu": 1000.0})[0] == 201
    status, body, _ = call("POST", "/counters/whole/increments", {"by": 2.0})
    assert (status, body) == (200, {"name": "whole", "by": 2, "replayed": False})
    assert call("GET", "/counters/whole")[1]["value"] == 2


def test_increments_land_on_random_shards_and_reads_sum_them(call: Call, aws: Any) -> None:
    call("PUT", "/counters/spread", {"target_wcu": 10_000})
    bys = [3, -1, 5, 1, 1, 2, -4, 7] * 10
    for by in bys:
        status, body, headers = call("POST", "/counters/spread/increments", {"by": by})
        assert (status, body) == (200, {"name": "spread", "by": by, "replayed": False})
        assert "Idempotent-Replayed" not in headers
    shards = shard_items(aws, "spread")
    assert len(shards) > 5 and all(key.startswith("spread#") for key in shards)
    assert sum(shards.values()) == sum(bys)
    for query in (None, {"consistent": "true"}):
        status, body, _ = call("GET", "/counters/spread", query=query)
        assert status == 200
        assert body == {
            "name": "spread",
            "value": sum(bys),
            "source": "shards",
            "shards": 15,
            "consistent": query is not None,
        }


def test_growing_keeps_every_count_and_spreads_new_writes(call: Call, aws: Any) -> None:
    call("PUT", "/counters/grow", {"target_wcu": 1000, "safety_factor": 1})  # 1 shard
    for _ in range(20):
        call("POST", "/counters/grow/increments", {"by": 1})
    assert shard_items(aws, "grow") == {"grow#0": 20}
    assert call("PUT", "/counters/grow", {"target_wcu": 10_000, "safety_factor": 1})[1]["shards"] == 10
    for _ in range(40):
        call("POST", "/counters/grow/increments", {"by": 1})
    assert len(shard_items(aws, "grow")) > 1
    assert call("GET", "/counters/grow")[1]["value"] == 60


def test_a_key_sent_five_times_counts_once_and_says_it_was_replayed(call: Call, aws: Any) -> None:
    call("PUT", "/counters/keyed")
    replies = [
        call("POST", "/counters/keyed/increments", {"by": 1}, headers={"Idempotency-Key": "ballot-1"})
        for _ in range(5)
    ]
    assert [body["replayed"] for _, body, _ in replies] == [False, True, True, True, True]
    assert all(headers.get("Idempotent-Replayed") == "true" for _, _, headers in replies[1:])
    assert call("GET", "/counters/keyed")[1]["value"] == 1
    (record,) = [i for i in aws.scan(TableName="idem")["Items"] if '"keyed"' in i["data"]["S"]]
    assert record["status"] == {"S": "COMPLETED"} and "expiration" in record  # the TTL attribute


def test_a_key_is_scoped_to_its_counter_and_bound_to_its_body(call: Call) -> None:
    for name in ("scoped-a", "scoped-b"):
        call("PUT", f"/counters/{name}")
        call("POST", f"/counters/{name}/increments", {"by": 2}, headers={"Idempotency-Key": "k"})
    assert call("GET", "/counters/scoped-a")[1]["value"] == call("GET", "/counters/scoped-b")[1]["value"] == 2
    status, body, _ = call(
        "POST", "/counters/scoped-a/increments", {"by": 3}, headers={"Idempotency-Key": "k"}
    )
    assert status == 422 and body["message"].startswith("Idempotency-Key:")
    assert call("GET", "/counters/scoped-a")[1]["value"] == 2


def test_unknown_counters_are_404_for_every_route(call: Call) -> None:
    for method, path, body in [
        ("GET", "/counters/nobody", None),
        ("POST", "/counters/nobody/increments", {"by": 1}),
    ]:
        status, response, _ = call(method, path, body)
        assert status == 404 and "PUT /counters/nobody" in response["message"]
    assert call("GET", "/counters/nobody", query={"source": "rollup"})[0] == 404


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "by: Field required"),
        ({"by": 1.5}, "by: Input should be a valid integer"),
        ({"by": "1"}, "by: Input should be a valid integer"),
        ({"by": True}, "by: Input should be a valid integer"),
        ({"by": 0}, "by: Value error, must not be 0"),
        ({"by": 1_000_001}, "by: Input should be less than or equal to 1000000"),
        ({"by": -1_000_001}, "by: Input should be greater than or equal to -1000000"),
        ({"by": 1, "note": "x"}, "note: Extra inputs are not permitted"),
        ([1], "body:"),
    ],
)
def test_bad_increments_are_400_naming_the_field(call: Call, body: Any, message: str) -> None:
    call("PUT", "/counters/invalid")
    status, response, _ = call("POST", "/counters/invalid/increments", body)
    assert status == 400 and response["message"].startswith(message), response


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "field"),
    [
        ("GET", "/counters/" + "x" * 65, {}, "name"),
        ("GET", "/counters/-leading-dash", {}, "name"),
        ("GET", "/counters/a b", {}, "name"),
        ("GET", "/counters/a", {"query": {"consistent": "maybe"}}, "consistent"),
        ("GET", "/counters/a", {"query": {"source": "cache"}}, "source"),
        ("POST", "/counters/a/increments", {"headers": {"Idempotency-Key": ""}}, "idempotency-key"),
        ("POST", "/counters/a/increments", {"headers": {"Idempotency-Key": "k" * 256}}, "idempotency-key"),
        ("POST", "/counters/a/increments", {"headers": {"Idempotency-Key": "clé"}}, "idempotency-key"),
    ],
)
def test_bad_names_queries_and_keys_are_400_naming_them(
    call: Call, method: str, path: str, kwargs: dict[str, Any], field: str
) -> None:
    body = {"by": 1} if method == "POST" else None
    status, response, _ = call(method, path, body, **kwargs)
    assert status == 400 and response["message"].startswith(f"{field}:"), response
