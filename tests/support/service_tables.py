"""The invoices, employees and replication tables as their constructs synthesize them (never a second
description), for any tier; and the largest item one accepts (the replica cannot store its copy)."""

from __future__ import annotations

import os
from functools import cache
from typing import Any

from tatami.local.engines.provision import create_table_request
from tatami.local.template.assembly import TableSpec


@cache
def lab_tables() -> dict[str, dict[str, Any]]:
    """Output key -> the table's CloudFormation properties, from the services' constructs."""
    os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
    import aws_cdk as cdk
    from aws_cdk import assertions

    from infra.constructs.page_tokens import PageTokenKey
    from infra.constructs.service_api import ServiceApi
    from infra.constructs.service_function import SharedLayers
    from infra.constructs.shared import Shared
    from infra.services.employees import EmployeesService
    from infra.services.invoices import InvoicesService
    from infra.services.replication import ReplicationService

    stack = cdk.Stack(cdk.App(), "Labs")
    shared = Shared(SharedLayers(stack, "Layers"), ServiceApi(stack, "Api"), PageTokenKey(stack, "Tokens"))
    InvoicesService(stack, "InvoicesLab", shared=shared)
    EmployeesService(stack, "EmployeesLab", shared=shared)
    ReplicationService(stack, "ReplicationLab", shared=shared)
    template = assertions.Template.from_stack(stack).to_json()
    resources = template["Resources"]
    return {
        output_key: resources[output["Value"]["Ref"]]["Properties"]
        for output_key, output in template["Outputs"].items()
        if isinstance(output["Value"], dict)
        and resources.get(output["Value"].get("Ref"), {}).get("Type") == "AWS::DynamoDB::GlobalTable"
    }


def create_lab_table(client: Any, output_key: str, prefix: str) -> str:
    spec = TableSpec(output_key, f"{prefix}-{output_key.removesuffix('TableName')}", lab_tables()[output_key])
    client.create_table(**create_table_request(spec))
    return spec.name


ITEM_LIMIT = 400 * 1024  # DynamoDB's item size limit, names and values


def largest_item(client: Any, table: str, key: str) -> int:
    """Put the largest item DynamoDB accepts under `key` (by bisection); its padding length.

    Its replica copy (+ `_rep_seq`) cannot fit, so the replicator's write fails for real.
    """
    fits, too_big = 0, ITEM_LIMIT
    while too_big - fits > 1:
        size = (fits + too_big) // 2
        try:
            client.put_item(TableName=table, Item={"PK": {"S": key}, "pad": {"S": "x" * size}})
            fits = size
        except client.exceptions.ClientError:
            too_big = size
    client.put_item(TableName=table, Item={"PK": {"S": key}, "pad": {"S": "x" * fits}})
    return fits
