"""The local IAM evaluation: AWS's order (explicit deny, then allow, else implicit deny), wildcards,
NotAction/NotResource, the condition operators the template uses, and the calls' IAM requests."""

from __future__ import annotations

from typing import Any

import pytest

from tatami.local.iam.evaluate import conditions_hold, evaluate, matches
from tatami.local.iam.requests import requests_for

TABLE = "arn:aws:dynamodb:us-east-1:000000000000:table/Tatami-Orders"
BUCKET = "arn:aws:s3:::tatami-bucket"
ROLE = "arn:aws:iam::000000000000:role/Tatami-Role"
SECURE = {"aws:securetransport": "true"}


def policy(
    *identity: dict[str, Any], resources: dict[str, list[dict[str, Any]]] | None = None
) -> dict[str, Any]:
    return {"principal": ROLE, "identity": list(identity), "resources": resources or {}}


def allow(actions: list[str], resources: list[str], **extra: Any) -> dict[str, Any]:
    return {"effect": "Allow", "actions": actions, "resources": resources, **extra}


def test_no_statement_is_an_implicit_deny_naming_the_action() -> None:
    decision = evaluate(policy(), "dynamodb:Query", TABLE, SECURE)
    assert not decision.allowed
    assert decision.reason == "because no identity-based policy allows the dynamodb:Query action"


def test_actions_match_case_insensitively_and_with_wildcards() -> None:
    granted = policy(allow(["dynamodb:Get*", "dynamodb:query"], [TABLE]))
    assert evaluate(granted, "dynamodb:GetItem", TABLE, SECURE).allowed
    assert evaluate(granted, "dynamodb:Query", TABLE, SECURE).allowed
    assert not evaluate(granted, "dynamodb:PutItem", TABLE, SECURE).allowed


def test_resources_match_wildcards_across_slashes_and_nothing_else() -> None:
    granted = policy(allow(["dynamodb:Query"], [f"{TABLE}/index/*"]))
    assert evaluate(granted, "dynamodb:Query", f"{TABLE}/index/ByCustomer", SECURE).allowed
    assert not evaluate(granted, "dynamodb:Query", TABLE, SECURE).allowed
    assert not evaluate(granted, "dynamodb:Query", f"{TABLE}x/index/ByCustomer", SECURE).allowed
    assert matches("a?c", "abc") and not matches("a?c", "abbc")
    assert matches("arn:[x]", "arn:[x]"), "regex characters are literal"


def test_an_explicit_deny_wins_over_any_allow() -> None:
    deny = {"effect": "Deny", "actions": ["dynamodb:*"], "resources": ["*"]}
    decision = evaluate(policy(allow(["dynamodb:*"], ["*"]), deny), "dynamodb:Query", TABLE, SECURE)
    assert not decision.allowed and "explicit deny in an identity-based policy" in decision.reason


def test_not_action_and_not_resource() -> None:
    granted = policy(
        {"effect": "Allow", "not_actions": ["s3:Delete*"], "not_resources": [f"{BUCKET}/private/*"]}
    )
    assert evaluate(granted, "s3:PutObject", f"{BUCKET}/public/a", SECURE).allowed
    assert not evaluate(granted, "s3:DeleteObject", f"{BUCKET}/public/a", SECURE).allowed
    assert not evaluate(granted, "s3:PutObject", f"{BUCKET}/private/a", SECURE).allowed


def test_a_bucket_policy_denying_insecure_transport_applies_to_its_objects() -> None:
    tls_only = {
        "effect": "Deny",
        "actions": ["s3:*"],
        "resources": [BUCKET, f"{BUCKET}/*"],
        "conditions": {"Bool": {"aws:SecureTransport": "false"}},
        "principals": ["*"],
    }
    granted = policy(allow(["s3:PutObject"], [f"{BUCKET}/*"]), resources={BUCKET: [tls_only]})
    assert evaluate(granted, "s3:PutObject", f"{BUCKET}/a", SECURE).allowed
    insecure = evaluate(granted, "s3:PutObject", f"{BUCKET}/a", {"aws:securetransport": "false"})
    assert not insecure.allowed and "resource-based policy" in insecure.reason


def test_a_resource_policy_allows_only_the_principals_it_names() -> None:
    statement = {"effect": "Allow", "actions": ["sqs:SendMessage"], "resources": ["*"], "principals": [ROLE]}
    queue = "arn:aws:sqs:us-east-1:000000000000:q"
    assert evaluate(policy(resources={queue: [statement]}), "sqs:SendMessage", queue, SECURE).allowed
    other = {**statement, "principals": ["arn:aws:iam::000000000000:role/Other"]}
    assert not evaluate(policy(resources={queue: [other]}), "sqs:SendMessage", queue, SECURE).allowed


@pytest.mark.parametrize(
    ("conditions", "context", "expected"),
    [
        ({"StringLike": {"s3:prefix": ["exports/*"]}}, {"s3:prefix": "exports/orders"}, True),
        ({"StringLike": {"s3:prefix": ["exports/*"]}}, {"s3:prefix": "other/"}, False),
        ({"StringLike": {"s3:prefix": ["exports/*"]}}, {}, False),  # a missing key never matches
        ({"StringNotEquals": {"s3:prefix": "x"}}, {}, True),  # ... unless the operator is negated
        ({"StringEqualsIfExists": {"s3:prefix": "x"}}, {}, True),
        ({"Null": {"s3:prefix": "true"}}, {}, True),
        ({"NumericLessThan": {"s3:max-keys": "10"}}, {"s3:max-keys": "5"}, True),
        ({"ForAnyValue:StringEquals": {"k": ["a", "b"]}}, {"k": ["c", "b"]}, True),
    ],
)
def test_condition_operators(conditions: dict[str, Any], context: dict[str, Any], expected: bool) -> None:
    assert conditions_hold(conditions, context) is expected


def test_an_unknown_condition_operator_is_an_error_not_an_allow() -> None:
    with pytest.raises(ValueError, match="DateGreaterThan"):
        conditions_hold({"DateGreaterThan": {"aws:CurrentTime": "2020-01-01"}}, {"aws:currenttime": "x"})


def requests(
    service: str, operation: str, params: dict[str, Any], prefix: str | None = None
) -> list[tuple[str, str]]:
    found = requests_for(prefix or service, service, operation, params, "us-east-1", "000000000000")
    return [(r.action, r.resource) for r in found]


def test_dynamodb_calls_name_the_table_or_the_index() -> None:
    assert requests("dynamodb", "Query", {"TableName": "Tatami-Orders", "IndexName": "ByCustomer"}) == [
        ("dynamodb:Query", f"{TABLE}/index/ByCustomer")
    ]
    batch = requests("dynamodb", "BatchGetItem", {"RequestItems": {"Tatami-Orders": {}, "Tatami-Other": {}}})
    assert [action for action, _ in batch] == ["dynamodb:BatchGetItem"] * 2


def test_stream_reads_use_the_dynamodb_prefix_and_the_stream_arn() -> None:
    stream = f"{TABLE}/stream/2026"
    assert requests("dynamodbstreams", "GetRecords", {"StreamArn": stream}, prefix="dynamodb") == [
        ("dynamodb:GetRecords", stream)
    ]


def test_s3_operations_map_to_their_permissions() -> None:
    listing = requests_for("s3", "s3", "ListObjectsV2", {"Bucket": "b", "Prefix": "exports/x"}, "r", "a")
    assert (listing[0].action, listing[0].resource, listing[0].context["s3:prefix"]) == (
        "s3:ListBucket",
        "arn:aws:s3:::b",
        "exports/x",
    )
    assert requests("s3", "HeadObject", {"Bucket": "b", "Key": "k"}) == [("s3:GetObject", "arn:aws:s3:::b/k")]
    assert requests("s3", "DeleteObject", {"Bucket": "b", "Key": "k", "VersionId": "1"}) == [
        ("s3:DeleteObjectVersion", "arn:aws:s3:::b/k")
    ]


def test_sqs_batches_need_the_single_action_on_the_queue_of_the_url() -> None:
    url = "http://127.0.0.1:5005/123456789012/Tatami-Failures"  # moto's account in the URL
    assert requests("sqs", "SendMessageBatch", {"QueueUrl": url}) == [
        ("sqs:SendMessage", "arn:aws:sqs:us-east-1:000000000000:Tatami-Failures")
    ]


def test_glue_table_calls_need_the_catalog_the_database_and_the_table() -> None:
    glue = "arn:aws:glue:us-east-1:000000000000"
    update = requests("glue", "UpdateTable", {"DatabaseName": "olap", "TableInput": {"Name": "raw_orders"}})
    assert update == [
        ("glue:UpdateTable", f"{glue}:catalog"),
        ("glue:UpdateTable", f"{glue}:database/olap"),
        ("glue:UpdateTable", f"{glue}:table/olap/raw_orders"),
    ]
    assert requests("glue", "GetTable", {"DatabaseName": "olap", "Name": "raw_orders"})[2] == (
        "glue:GetTable",
        f"{glue}:table/olap/raw_orders",
    )
