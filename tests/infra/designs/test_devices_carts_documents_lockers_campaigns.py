"""Seed 004's models in the synthesized template: keys, GSIs and projections, the bucket, S3 grants
scoped to each function's prefix, and the routes each function serves."""

from __future__ import annotations

from typing import Any

import pytest

from tatami.local.gateway.routes import read_routes
from tatami_functions import stack_outputs
from tests.support.synthesis import Synthesized, indexes, keys

HASH, RANGE = "HASH", "RANGE"


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def types(properties: dict[str, Any]) -> dict[str, str]:
    return {d["AttributeName"]: d["AttributeType"] for d in properties["AttributeDefinitions"]}


ALL, KEYS_ONLY = {"ProjectionType": "ALL"}, {"ProjectionType": "KEYS_ONLY"}


EXPECTED = {
    stack_outputs.OUTPUT_DEVICE_LOGS_TABLE: (
        [("device_id", HASH), ("level_with_created_at", RANGE)],
        {
            "GSI_operator_created_at": ([("operator", HASH), ("created_at", RANGE)], ALL),
            "GSI_escalated_to_level_with_created_at": (
                [("escalated_to", HASH), ("level_with_created_at", RANGE)],
                ALL,
            ),
            "GSI_shard_id_created_at": ([("shard_id", HASH), ("created_at", RANGE)], ALL),
        },
    ),
    stack_outputs.OUTPUT_CARTS_TABLE: (
        [("user_id", HASH), ("sort_key", RANGE)],
        {"GSI_sort_key_gsi_sk": ([("sort_key", HASH), ("gsi_sk", RANGE)], KEYS_ONLY)},
    ),
    stack_outputs.OUTPUT_DOCUMENTS_TABLE: (
        [("report_id", HASH)],
        {
            "GSI_user_id_status_with_created_on": (
                [("user_id", HASH), ("status_with_created_on", RANGE)],
                {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["summary"]},
            )
        },
    ),
    stack_outputs.OUTPUT_LOCKERS_TABLE: ([("state", HASH), ("location", RANGE)], {}),
    stack_outputs.OUTPUT_CAMPAIGN_USERS_TABLE: (
        [("user_id", HASH)],
        {
            "GSI_prefecture": ([("prefecture", HASH), ("user_id", RANGE)], KEYS_ONLY),
            "GSI_birth_month": ([("birth_month", HASH), ("user_id", RANGE)], KEYS_ONLY),
            "GSI_last_order_month": ([("last_order_month", HASH), ("user_id", RANGE)], KEYS_ONLY),
        },
    ),
}


@pytest.mark.parametrize("output_key", list(EXPECTED))
def test_keys_gsis_and_projections_are_the_seeds(synthesized: Synthesized, output_key: str) -> None:
    properties = synthesized.table(output_key)
    table_keys, expected_indexes = EXPECTED[output_key]
    assert keys(properties["KeySchema"]) == table_keys
    assert indexes(properties) == expected_indexes
    (replica,) = properties["Replicas"]
    assert replica["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert replica["DeletionProtectionEnabled"] is True


def test_numbers_are_numbers_in_the_key_definitions(synthesized: Synthesized) -> None:
    assert types(synthesized.table(stack_outputs.OUTPUT_DEVICE_LOGS_TABLE))["shard_id"] == "N"
    campaign = types(synthesized.table(stack_outputs.OUTPUT_CAMPAIGN_USERS_TABLE))
    assert (campaign["birth_month"], campaign["last_order_month"], campaign["prefecture"]) == ("N", "N", "S")


def test_the_bucket_is_private_tls_only_versioned_and_logged(synthesized: Synthesized) -> None:
    bucket_id = synthesized.logical_id(stack_outputs.OUTPUT_WORKSHOP_BUCKET)
    bucket = synthesized.template["Resources"][bucket_id]["Properties"]
    assert all(bucket["PublicAccessBlockConfiguration"].values())
    assert bucket["VersioningConfiguration"] == {"Status": "Enabled"}
    assert "DestinationBucketName" in bucket["LoggingConfiguration"]
    assert bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    policies = [
        p["Properties"]["PolicyDocument"]["Statement"]
        for p in synthesized.resources("AWS::S3::BucketPolicy").values()
        if p["Properties"]["Bucket"] == {"Ref": bucket_id}
    ]
    assert any(
        s["Effect"] == "Deny" and s["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}
        for statements in policies
        for s in statements
    )


def s3_resources(synthesized: Synthesized, role_prefix: str) -> list[Any]:
    return [
        resource
        for logical_id, policy in synthesized.resources("AWS::IAM::Policy").items()
        if logical_id.startswith(role_prefix)
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
        if any(action.startswith("s3:") for action in as_list(statement["Action"]))
        for resource in as_list(statement["Resource"])
    ]


@pytest.mark.parametrize(
    ("role", "prefix"),
    [
        ("WorkshopDocumentsFunction", "/documents/*"),
        ("WorkshopLogArchiverFunction", "/archive/device-logs/*"),
    ],
)
def test_s3_grants_stay_inside_their_prefix(synthesized: Synthesized, role: str, prefix: str) -> None:
    bucket_arn = {"Fn::GetAtt": [synthesized.logical_id("WorkshopBucketName"), "Arn"]}
    resources = s3_resources(synthesized, role)
    assert resources
    for resource in resources:  # objects under the prefix only (never List*/GetBucket* on the bucket)
        assert resource == {"Fn::Join": ["", [bucket_arn, prefix]]}, resource
    others = [
        r
        for k in ("WorkshopDeviceLogsFunction", "WorkshopCartsFunction")
        for r in s3_resources(synthesized, k)
    ]
    assert others == []


def test_every_route_of_the_models_is_served_by_its_function(synthesized: Synthesized) -> None:
    stack = synthesized.stack()
    served = {(r.method, r.resource_path): r.function_id or "" for r in read_routes(stack)}
    expected = {
        "WorkshopDeviceLogsFunction": [
            "POST /devices/{device_id}/logs",
            "GET /devices/{device_id}/logs",
            "PATCH /devices/{device_id}/logs/{level}/{created_at}",
            "GET /operators/{operator}/logs",
            "GET /escalations",
            "GET /logs/recent",
        ],
        "WorkshopCartsFunction": [
            "GET /users/{user_id}/cart",
            "GET /users/{user_id}/cart/items",
            "GET /users/{user_id}/cart/items/{item_id}/{field}",
            "PUT /users/{user_id}/cart/items/{item_id}/{field}",
            "PUT /users/{user_id}/cart/items/{item_id}",
            "DELETE /users/{user_id}/cart/items/{item_id}",
            "PUT /users/{user_id}/cart/ship-to",
            "GET /carts/by-item/{item_id}",
            "GET /carts/by-prefecture/{state}",
        ],
        "WorkshopDocumentsFunction": [
            "GET /users/{user_id}/documents",
            *(f"{m} /users/{{user_id}}/documents/{{report_id}}" for m in ("PUT", "GET", "PATCH", "DELETE")),
        ],
        "WorkshopLockersFunction": [f"{m} /lockers/{{locker_id}}" for m in ("PUT", "GET", "DELETE")],
        "WorkshopCampaignUsersFunction": [
            "GET /campaigns/candidates",
            "GET /campaigns/users/{user_id}",
            "PUT /campaigns/users/{user_id}",
        ],
    }
    for function, routes in expected.items():
        for route in routes:
            method, path = route.split(" ")
            assert served[(method, path)].startswith(function), route
    lockers = [r for r in read_routes(stack) if (r.method, r.resource_path) == ("GET", "/lockers")]
    assert lockers[0].required_query == ("state",)
