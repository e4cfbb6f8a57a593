"""Exact DynamoDB grants: the actions a function's code calls, on the table or on the indexes it names.

CDK's `grant_read_data`/`grant_read_write_data` give a function Scan, BatchWriteItem, DescribeTable,
ConditionCheckItem and stream reads it never calls, and `table.grant(...)` adds `<table>/index/*` to
any action of a table that has an index (a GetItem cannot read an index). These grant what each
access pattern calls, on the ARNs it uses; `tatami doctor` checks each against the code.

For example (not run as a doctest)::

    grant_table(function, table, "GetItem", "PutItem")
    grant_indexes(function, table, [BUSINESS_LOCATION.name], "Query")
"""

from __future__ import annotations

from collections.abc import Sequence

from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam

__all__ = ["grant_indexes", "grant_table"]


def grant_table(function: iam.IGrantable, table: dynamodb.ITableV2, *actions: str) -> iam.Grant:
    """`dynamodb:<action>` for each of `actions` on the table itself (its items, never its indexes)."""
    return _grant(function, [table.table_arn], actions)


def grant_indexes(
    function: iam.IGrantable, table: dynamodb.ITableV2, indexes: Sequence[str], *actions: str
) -> iam.Grant:
    """`dynamodb:<action>` (a Query or Scan) on each of the table's indexes `indexes` names."""
    if not indexes:
        raise ValueError(f"grant_indexes of {', '.join(actions)} names no index")
    return _grant(function, [f"{table.table_arn}/index/{name}" for name in indexes], actions)


def _grant(function: iam.IGrantable, resources: list[str], actions: Sequence[str]) -> iam.Grant:
    if not actions:
        raise ValueError("a grant needs at least one action")
    return iam.Grant.add_to_principal(
        grantee=function, actions=[f"dynamodb:{action}" for action in actions], resource_arns=resources
    )
