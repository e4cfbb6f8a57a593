"""The local cloud serving the probe app: routes, streams, failures, concurrency, TTL, rules."""

from __future__ import annotations

import json
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from tatami.local.cloud import LocalCloud
from tests.support.waiting import eventually


def seen(cloud: LocalCloud, key: str) -> dict[str, Any] | None:
    item = cloud.client("dynamodb").get_item(TableName=cloud.outputs["SeenTableName"], Key={"id": {"S": key}})
    return item.get("Item")


def drain(cloud: LocalCloud) -> list[dict[str, Any]]:
    sqs, url, messages = cloud.client("sqs"), cloud.outputs["FailureQueueUrl"], []
    while batch := sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", []):
        messages += [json.loads(m["Body"]) for m in batch]
        for m in batch:
            sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
    return messages


def test_a_write_through_a_route_runs_the_stream_functions(probe_cloud: LocalCloud) -> None:
    key = f"note-{uuid.uuid4().hex[:8]}"
    response = requests.put(f"{probe_cloud.api_url}/notes/{key}", json={"text": "hello"}, timeout=10)
    assert response.status_code == 200
    assert requests.get(f"{probe_cloud.api_url}/notes/{key}", timeout=10).json() == {
        "id": key,
        "text": "hello",
    }
    bisecting = eventually(lambda: seen(probe_cloud, f"bisecting#{key}#INSERT"), timeout=20)
    partial = eventually(lambda: seen(probe_cloud, f"partial#{key}#INSERT"), timeout=20)
    assert bisecting["deliveries"] == {"N": "1"} and partial["deliveries"] == {"N": "1"}


def test_a_poisoned_record_is_retried_bisected_and_sent_to_the_failure_queue(probe_cloud: LocalCloud) -> None:
    drain(probe_cloud)
    batch = f"batch-{uuid.uuid4().hex[:6]}"
    keys = [f"{batch}-{n}" for n in range(9)]
    for n, key in enumerate(keys):  # within the 1 s batching window: one batch of 9
        requests.put(
            f"{probe_cloud.api_url}/notes/{key}",
            json={"n": n, **({"poison": 1} if n == 4 else {})},
            timeout=10,
        )
    good = [key for n, key in enumerate(keys) if n != 4]
    assert eventually(lambda: all(seen(probe_cloud, f"bisecting#{key}#INSERT") for key in good), timeout=30)
    assert seen(probe_cloud, f"bisecting#{keys[4]}#INSERT") is None
    messages = eventually(
        lambda: [m for m in drain(probe_cloud) if "Bisecting" in m["requestContext"]["functionArn"]],
        timeout=30,
    )
    assert len(messages) == 1
    info = messages[0]["DDBStreamBatchInfo"]
    assert info["batchSize"] == 1
    assert messages[0]["requestContext"]["condition"] == "RetryAttemptsExhausted"
    assert messages[0]["requestContext"]["approximateInvokeCount"] == 3  # first try + 2 retries
    failed_alone = [line for line in probe_cloud.log.snapshot() if "poisoned batch of 1" in line]
    assert len(failed_alone) >= 3


def test_api_gateway_answers_for_what_it_rejects(probe_cloud: LocalCloud) -> None:
    api = probe_cloud.api_url
    unknown = requests.get(f"{api}/no/such/route", timeout=10)  # as API Gateway with IAM auth answers
    assert (unknown.status_code, unknown.json()) == (403, {"message": "Missing Authentication Token"})
    missing = requests.get(f"{api}/notes", timeout=10)
    assert missing.status_code == 400 and "prefix" in missing.json()["message"]
    too_large = requests.post(f"{api}/echo", data=b"x" * (10 * 1024 * 1024 + 1), timeout=30)
    assert too_large.status_code == 413
    past_lambda = requests.post(f"{api}/echo", data=b"x" * (7 * 1024 * 1024), timeout=30)  # Lambda: 6 MB
    assert (past_lambda.status_code, past_lambda.json()) == (500, {"message": "Internal server error"})
    request_id = past_lambda.headers["x-amzn-RequestId"]
    refused = [line for line in probe_cloud.log.snapshot() if request_id in line]
    assert any("Lambda refused the invocation: 7" in line for line in refused), refused
    just_fits = requests.post(f"{api}/echo", data=b"x" * (1024 * 1024), timeout=30)
    assert just_fits.json()["bytes"] == 1024 * 1024


def test_a_crash_is_a_502_logged_with_the_request_id(probe_cloud: LocalCloud) -> None:
    response = requests.get(f"{probe_cloud.api_url}/crash", timeout=10)
    assert response.status_code == 502
    assert response.json() == {"message": "Internal server error"}
    request_id = response.headers["x-amzn-RequestId"]
    logged = eventually(  # the function's stderr reaches the log book through a reader thread
        lambda: [
            line for line in probe_cloud.log.snapshot() if request_id in line and "RuntimeError" in line
        ],
        timeout=10,
    )
    assert logged, "the 502 must be logged with its request id and the error"
    assert requests.get(f"{probe_cloud.api_url}/malformed", timeout=10).status_code == 502


def test_a_handler_past_its_timeout_is_a_502_not_a_hang(probe_cloud: LocalCloud) -> None:
    """Lambda ends the function at its timeout, a function error: API Gateway answers 502."""
    started = time.monotonic()
    response = requests.get(f"{probe_cloud.api_url}/slow", params={"seconds": "30"}, timeout=20)
    assert (response.status_code, response.json()) == (502, {"message": "Internal server error"})
    assert time.monotonic() - started < 6  # the probe function's timeout is 3 s
    assert requests.get(f"{probe_cloud.api_url}/state", timeout=10).status_code == 200  # replaced, serving


def test_concurrent_requests_are_served_concurrently(probe_cloud: LocalCloud) -> None:
    def slow(_: int) -> requests.Response:
        return requests.get(f"{probe_cloud.api_url}/slow", params={"seconds": "1.5"}, timeout=20)

    started = time.monotonic()
    with ThreadPoolExecutor(4) as pool:
        responses = list(pool.map(slow, range(4)))
    assert [r.status_code for r in responses] == [200] * 4
    assert time.monotonic() - started < 4.5  # serialized, four would take over 6 s


def test_functions_keep_their_own_environment_and_module_state(probe_cloud: LocalCloud) -> None:
    first = requests.get(f"{probe_cloud.api_url}/state", timeout=10).json()
    second = requests.get(f"{probe_cloud.api_url}/state", timeout=10).json()
    assert first["function"].startswith("Probe-ApiFunction")
    if first["pid"] == second["pid"]:  # the same warm execution environment
        assert second["invocations"] == first["invocations"] + 1
    assert 0 < second["remaining_ms"] <= 3000
    tick = probe_cloud.fire_rule("EveryHour")[0]
    assert tick.ok, tick.error
    assert seen(probe_cloud, f"tick#{tick.result['ticked']}")["detail_type"] == {"S": "Scheduled Event"}


def test_query_reaches_the_handler_decoded_and_the_path_as_the_client_encoded_it(
    probe_cloud: LocalCloud,
) -> None:
    response = requests.post(
        f"{probe_cloud.api_url}/echo", params={"location": "千代田区#紀尾井町"}, timeout=10
    )
    assert response.json()["event"]["queryStringParameters"] == {"location": "千代田区#紀尾井町"}
    # As API Gateway's REST API: routed on, and handed over, percent-encoded (an encoded '/' is no
    # separator); the function decodes (tatami's resolver does: common/text.py).
    proxy = requests.get(f"{probe_cloud.api_url}/files/a/b%20c%2Fe/d.txt", timeout=10).json()
    assert proxy == {"proxy": "a/b%20c%2Fe/d.txt"}


@pytest.mark.slow
@pytest.mark.parametrize("in_index", [True, False], ids=["in-the-gsi", "outside-the-gsi"])
def test_ttl_deletions_arrive_as_remove_by_the_dynamodb_service(
    probe_cloud: LocalCloud, in_index: bool
) -> None:
    key = f"ttl-{uuid.uuid4().hex[:8]}"
    note = {"expires_at": int(time.time()) - 60, **({"tag": "t"} if in_index else {})}
    requests.put(f"{probe_cloud.api_url}/notes/{key}", json=note, timeout=10)
    removed = eventually(lambda: seen(probe_cloud, f"partial#{key}#REMOVE"), timeout=60)
    assert removed, "the expired item should be deleted and its REMOVE streamed"
    assert "dynamodb.amazonaws.com" in removed["user_identity"]["S"]
    assert requests.get(f"{probe_cloud.api_url}/notes/{key}", timeout=10).status_code == 404
    assert seen(probe_cloud, f"bisecting#{key}#REMOVE") is None  # its FilterCriteria admit INSERT only


def test_a_users_own_delete_is_not_taken_for_ttl(probe_cloud: LocalCloud) -> None:
    key = f"del-{uuid.uuid4().hex[:8]}"
    requests.put(
        f"{probe_cloud.api_url}/notes/{key}", json={"expires_at": int(time.time()) + 3600}, timeout=10
    )
    probe_cloud.client("dynamodb").delete_item(
        TableName=probe_cloud.outputs["NotesTableName"], Key={"id": {"S": key}}
    )
    removed = eventually(lambda: seen(probe_cloud, f"partial#{key}#REMOVE"), timeout=30)
    assert removed["user_identity"] == {"S": "None"}
