"""The loader's DynamoDB client: the target's endpoint, without boto3's client-side validation.

The loader builds every request itself from `tatami_functions.ip_lookup.keys` and DynamoDB validates each
one again, so boto3's walk over every attribute of every item only costs CPU: about a third of the
loader's own CPU per item, measured on DynamoDB Local (the seed's bottleneck is partitions; on a laptop
it is CPU).
"""

from __future__ import annotations

from typing import Any

import boto3

from tatami.clients import UNVALIDATED_BULK_CALLS
from tatami.local.engines.processes import LOCAL_CREDENTIALS
from tatami.local.template.intrinsics import LOCAL_REGION
from tatami.target import Target


def loader_client(target: Target) -> Any:
    """A DynamoDB client for `target` (the local cloud or the deployed stack's account and region).

    For example (not run as a doctest)::

        store = RangesStore(loader_client(resolve_target(local=True)), table_name)
    """
    if not target.is_local:
        return boto3.client("dynamodb", config=UNVALIDATED_BULK_CALLS.config)
    return target.recorded(
        boto3.client(
            "dynamodb",
            endpoint_url=target.dynamodb_endpoint,
            region_name=LOCAL_REGION,
            config=UNVALIDATED_BULK_CALLS.config,
            **LOCAL_CREDENTIALS,
        )
    )
