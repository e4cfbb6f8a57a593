"""Grants no broader than the calls (the deploy audit found four): each function's actions, exactly."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.synthesis import Synthesized


def granted(synthesized: Synthesized, function_prefix: str, service: str) -> set[str]:
    """The `service` actions the function's role may take, on any resource."""
    (function,) = [
        f for k, f in synthesized.resources("AWS::Lambda::Function").items() if k.startswith(function_prefix)
    ]
    role = function["Properties"]["Role"]["Fn::GetAtt"][0]
    actions: set[str] = set()
    for policy in synthesized.resources("AWS::IAM::Policy").values():
        if {"Ref": role} in policy["Properties"]["Roles"]:
            for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
                listed: Any = statement["Action"]
                actions |= {
                    a for a in ([listed] if isinstance(listed, str) else listed) if a.startswith(service)
                }
    return actions


@pytest.mark.parametrize(
    ("function", "service", "expected"),
    [
        # One GetItem for the dataset alias, one Query per address: no Scan, batch writes or streams.
        ("IpLookupLookupFunction", "dynamodb:", {"dynamodb:GetItem", "dynamodb:Query"}),
        # Bodies by key; no s3:DeleteObjectVersion (the 30 days of versions stay), no List*/GetBucket*.
        ("WorkshopDocumentsFunction", "s3:", {"s3:GetObject", "s3:PutObject", "s3:DeleteObject"}),
        ("WorkshopLogArchiverFunction", "s3:", {"s3:PutObject"}),
        # What DynamoDB's export needs of the caller, plus the listing of earlier exports.
        (
            "OlapExportFunction",
            "s3:",
            {"s3:AbortMultipartUpload", "s3:PutObject", "s3:PutObjectAcl", "s3:ListBucket"},
        ),
    ],
)
def test_each_function_is_granted_what_it_calls(
    synthesized: Synthesized, function: str, service: str, expected: set[str]
) -> None:
    assert granted(synthesized, function, service) == expected


def test_each_function_writes_its_own_log_group_and_no_other(synthesized: Synthesized) -> None:
    """No AWSLambdaBasicExecutionRole (`logs:*` writes on `*`): a function that could write another's
    log group could forge its EMF lines, which the lag alarms trust."""
    roles = synthesized.resources("AWS::IAM::Role")
    policies = synthesized.resources("AWS::IAM::Policy").values()
    for function_id, function in synthesized.resources("AWS::Lambda::Function").items():
        props = function["Properties"]
        role = props["Role"]["Fn::GetAtt"][0]
        assert "ManagedPolicyArns" not in roles[role]["Properties"], function_id
        own = {"Fn::GetAtt": [props["LoggingConfig"]["LogGroup"]["Ref"], "Arn"]}
        logs = [
            (statement["Action"], statement["Resource"])
            for policy in policies
            if {"Ref": role} in policy["Properties"]["Roles"]
            for statement in policy["Properties"]["PolicyDocument"]["Statement"]
            if any(str(a).startswith("logs:") for a in _listed(statement["Action"]))
        ]
        assert logs == [(["logs:CreateLogStream", "logs:PutLogEvents"], own)], function_id


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]
