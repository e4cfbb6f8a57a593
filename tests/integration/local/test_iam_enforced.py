"""IAM from the template, enforced on the local cloud: take one grant away and the call it served is
refused with AWS's AccessDenied, while every other function keeps working.

One local cloud serves a copy of the app with four grants removed, each from a different function
(so each removal is tested alone): a DynamoDB read (the IP lookup's GetItem), a DynamoDB write (the
businesses' PutItem), an S3 put (the documents' PutObject) and an SQS send (the replicator's, which
Lambda also needs to create its stream mapping with an on-failure queue).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
import requests

from tatami.local.cloud import LocalCloud, LocalCloudConfig, free_ports
from tests.support.templates import copy_assembly, revoke
from tests.support.waiting import eventually

BATCH_WRITE, CONDITION_CHECK = "dynamodb:BatchWriteItem", "dynamodb:ConditionCheckItem"
REMOVED = [
    revoke("IpLookupLookupFunction", "dynamodb:GetItem"),
    revoke("BusinessesModelFunction", "dynamodb:PutItem"),
    revoke("WorkshopDocumentsFunction", "s3:PutObject"),
    revoke("ReplicationLabFunction", "sqs:SendMessage"),
]


@pytest.fixture(scope="module")
def restricted(app_cloud: LocalCloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCloud]:
    root = tmp_path_factory.mktemp("restricted")
    cdk_out = copy_assembly(app_cloud.config.cdk_out, root / "cdk.out", *REMOVED)
    config = LocalCloudConfig(
        cdk_out=cdk_out,
        **free_ports(),
        work_dir=root / "work",
        echo_logs=False,
        warm_functions=False,
    )
    cloud = LocalCloud(config).start()
    yield cloud
    cloud.stop()


def refusals(cloud: LocalCloud, action: str) -> list[str]:
    """The guard's refusal lines for `action`, waited for: a function's stderr reaches the log book
    through a reader thread, so the line can arrive just after the response it caused."""

    def seen() -> list[str]:
        return [line for line in cloud.log.snapshot() if "IAM:" in line and f"perform: {action} " in line]

    return eventually(seen, timeout=10)


def test_a_removed_dynamodb_read_fails_the_route_with_access_denied(restricted: LocalCloud) -> None:
    response = requests.get(f"{restricted.api_url}/ip/8.8.8.8", timeout=60)
    assert response.status_code == 503, response.text
    (line, *_) = refusals(restricted, "dynamodb:GetItem")
    assert "assumed-role/Tatami-IpLookupLookupFunctionServiceRole" in line
    assert "table/Tatami-IpLookupRanges" in line
    assert "because no identity-based policy allows the dynamodb:GetItem action" in line


def test_a_removed_dynamodb_write_fails_the_write_and_leaves_reads(restricted: LocalCloud) -> None:
    business = {"BusinessType": "CoffeeShop", "BusinessName": "Beans"}
    assert requests.put(f"{restricted.api_url}/businesses/b-1", json=business, timeout=60).status_code >= 500
    assert refusals(restricted, "dynamodb:PutItem")
    assert requests.get(f"{restricted.api_url}/businesses/b-1", timeout=60).status_code == 404


def test_a_removed_s3_put_fails_large_documents_only(restricted: LocalCloud) -> None:
    url = f"{restricted.api_url}/users/MAX/documents"
    small = {"status": "COMPLETED", "summary": "s", "document": "inline body"}
    assert requests.put(f"{url}/small", json=small, timeout=60).status_code == 201
    large = {**small, "document": secrets.token_hex(16_000)}  # over 8 KB compressed: the body goes to S3
    assert requests.put(f"{url}/large", json=large, timeout=60).status_code >= 500
    (line, *_) = refusals(restricted, "s3:PutObject")
    assert "documents/large" in line


def test_a_removed_sqs_send_stops_the_consumer_as_lambda_would(restricted: LocalCloud) -> None:
    (mapping,) = [
        m for m in restricted.assembly.stream_mappings if m.function_id.startswith("ReplicationLab")
    ]
    (line,) = [
        line for line in restricted.log.snapshot() if f"mapping {mapping.logical_id} not started" in line
    ]
    assert "AccessDenied for sqs:SendMessage on arn:aws:sqs:" in line
    assert mapping.logical_id not in restricted.stream_stats


def test_untouched_functions_still_pass(restricted: LocalCloud) -> None:
    api = restricted.api_url
    assert requests.get(f"{api}/forums", timeout=60).status_code == 200
    assert requests.put(f"{api}/counters/iam-test", json={"target_wcu": 1000}, timeout=60).status_code == 201
    assert requests.post(f"{api}/counters/iam-test/increments", json={"by": 2}, timeout=60).status_code == 200
    assert requests.get(f"{api}/openapi.json", timeout=60).status_code == 200
    others = [
        m for m in restricted.assembly.stream_mappings if not m.function_id.startswith("ReplicationLab")
    ]
    assert all(m.logical_id in restricted.stream_stats for m in others)


def test_the_report_lists_what_each_function_used_and_never_used(restricted: LocalCloud) -> None:
    from tatami.local.iam.report import least_privilege

    requests.get(f"{restricted.api_url}/forums", timeout=60)
    reports = {r.function: r for r in least_privilege(restricted.config.work_dir)}
    forum = next(r for f, r in reports.items() if f.startswith("ForumModelFunction"))
    assert any(action == "dynamodb:Scan" for action, _ in forum.used)
    # Granted exactly what the code calls: no BatchWriteItem or ConditionCheckItem at all; the Query of
    # the threads and replies tables is granted and, in this test, never used.
    assert not any(action in (BATCH_WRITE, CONDITION_CHECK) for action, _ in [*forum.unused, *forum.used])
    assert any(action == "dynamodb:Query" for action, _ in forum.unused)
    lookup = next(r for f, r in reports.items() if f.startswith("IpLookupLookupFunction"))
    assert any(action == "dynamodb:GetItem" for action, _ in lookup.denied)
