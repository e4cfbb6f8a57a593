"""The deployed stack's public contract: its name and the names of the outputs it declares.

The CDK app (`infra`, in a checkout only) writes these outputs; the CLI (`tatami`) reads them from
CloudFormation after `cdk deploy`, or from the local cloud, which serves the same template. Both
import the names from here, so the two cannot drift and the CLI finds a deployed stack without
`infra`. It sits at the top of `tatami_functions`, below both of them in the import layers and outside
every function's asset: no function reads it.
"""

from __future__ import annotations

import re

_STAGE = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def stack_name(stage: str | None = None) -> str:
    """The stack of a stage: "Tatami" without one (the name every deployed stack had before stages),
    "Tatami-<stage>" with one. Names derived from the stack's (the Glue database, the Athena
    workgroup) follow it, so two stages share an account and region.

    >>> stack_name(), stack_name("dev")
    ('Tatami', 'Tatami-dev')
    """
    if not stage:
        return "Tatami"
    if len(stage) > 20 or not _STAGE.fullmatch(stage):
        raise ValueError(
            f"stage {stage!r}: use at most 20 lowercase letters, digits and single hyphens "
            "(e.g. dev, prod-eu)"
        )
    return f"Tatami-{stage}"


def stage_of(stack: str) -> str | None:
    """The stage a stack (or a stack named after it, such as its monitoring stack) belongs to: the
    inverse of `stack_name`.

    >>> stage_of("Tatami"), stage_of("Tatami-prod-eu"), stage_of("Tatami-prodMonitoring")
    (None, 'prod-eu', 'prod')
    """
    stage = stack.removeprefix("Tatami").removesuffix("Monitoring").removeprefix("-")
    return stage or None


def is_dev_stage(stage: str | None) -> bool:
    """A developer's stage: none (the local cloud, the tests, a first try in an account), `dev` or
    `dev-<name>`. Any other stage is operated: its alarms must reach someone.

    >>> is_dev_stage(None), is_dev_stage("dev-alice"), is_dev_stage("prod")
    (True, True, False)
    """
    return stage is None or stage == "dev" or stage.startswith("dev-")


STACK_NAME = stack_name()

OUTPUT_API_URL = "ApiUrl"
OUTPUT_OPENAPI_URL = "OpenApiUrl"
# Seed 001/002 data models (infra/services/forum.py, orders.py, businesses.py).
OUTPUT_FORUMS_TABLE = "ForumsTableName"
OUTPUT_THREADS_TABLE = "ThreadsTableName"
OUTPUT_REPLIES_TABLE = "RepliesTableName"
OUTPUT_ORDERS_TABLE = "OrdersTableName"
OUTPUT_CUSTOMERS_TABLE = "CustomersTableName"
OUTPUT_BUSINESSES_TABLE = "BusinessesTableName"
OUTPUT_COUNTER_SHARDS_TABLE = "CounterShardsTableName"
OUTPUT_COUNTERS_TABLE = "CountersTableName"
OUTPUT_COUNTER_IDEMPOTENCY_TABLE = "CounterIdempotencyTableName"
OUTPUT_COUNTER_ROLLUP_FAILURES = "CounterRollupFailureQueueUrl"
# Seed 003 IP lookup (infra/services/ip_lookup.py).
OUTPUT_IP_RANGES_TABLE = "IpRangesTableName"
# Seed 004 data models (infra/services/: devices, carts, documents, lockers, campaigns).
OUTPUT_DEVICE_LOGS_TABLE = "DeviceLogsTableName"
OUTPUT_CARTS_TABLE = "CartsTableName"
OUTPUT_DOCUMENTS_TABLE = "DocumentsTableName"
OUTPUT_LOCKERS_TABLE = "LockersTableName"
OUTPUT_CAMPAIGN_USERS_TABLE = "CampaignUsersTableName"
OUTPUT_WORKSHOP_BUCKET = "WorkshopBucketName"
# Seed 004 labs (infra/constructs/labs.py).
OUTPUT_INVOICES_TABLE = "InvoiceAndBillingTableName"
OUTPUT_EMPLOYEES_TABLE = "EmployeesTableName"
OUTPUT_LOGFILE_TABLE = "LogfileTableName"
OUTPUT_LOGFILE_REPLICA_TABLE = "LogfileReplicaTableName"
OUTPUT_REPLICATION_FAILURES = "ReplicationFailureQueueUrl"
# OLAP export (infra/constructs/olap.py): the bucket, the exported tables (JSON: key -> table ARN), Athena.
OUTPUT_OLAP_BUCKET = "OlapBucketName"
OUTPUT_OLAP_TABLES = "OlapTables"
OUTPUT_OLAP_DATABASE = "OlapDatabaseName"
OUTPUT_OLAP_WORKGROUP = "OlapWorkGroupName"
# Places (infra/services/places.py): the table, the Z-order index settings (JSON), the failure queue.
OUTPUT_PLACES_TABLE = "PlacesTableName"
OUTPUT_PLACES_ZINDEX = "PlacesZIndex"
OUTPUT_PLACES_FAILURES = "PlacesMaintainerFailureQueueUrl"
# Every indexed table has a <Name>ZIndex output holding its declaration (`tatami zindex --table name`).
OUTPUT_ORDERS_ZINDEX = "OrdersZIndex"
