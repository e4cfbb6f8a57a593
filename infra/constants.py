"""Names shared by the CDK app, the local cloud and the tests (one place, imported everywhere)."""

from __future__ import annotations

STACK_NAME = "Tatami"

# Lambda runtime and the public Powertools layer. The layer version is pinned to the release that
# the Python dependency pins (aws-lambda-powertools==3.31.1 is layer version 36), so what the tests
# run locally is what runs in Lambda. Bump both together.
LAMBDA_PYTHON = "python3.14"
POWERTOOLS_LAYER_ACCOUNT = "017000801446"
POWERTOOLS_LAYER_NAME = "AWSLambdaPowertoolsPythonV3-python314-arm64"
POWERTOOLS_LAYER_VERSION = 36

API_STAGE = "v1"
METRICS_NAMESPACE = "Tatami"

# Stack output keys (the README and the CLI read them after `cdk deploy`).
OUTPUT_API_URL = "ApiUrl"
OUTPUT_OPENAPI_URL = "OpenApiUrl"
# Seed 001/002 data models (infra/constructs/forum_orders_businesses.py).
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
# Seed 003 IP lookup (infra/constructs/ip_lookup.py).
OUTPUT_IP_RANGES_TABLE = "IpRangesTableName"
# Seed 004 data models (infra/constructs/models_workshop.py).
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
# Places (infra/constructs/places.py): the table, the Z-order index settings (JSON), the failure queue.
OUTPUT_PLACES_TABLE = "PlacesTableName"
OUTPUT_PLACES_ZINDEX = "PlacesZIndex"
OUTPUT_PLACES_FAILURES = "PlacesMaintainerFailureQueueUrl"
# Every indexed table has a <Name>ZIndex output holding its declaration (`tatami zindex --table name`).
OUTPUT_ORDERS_ZINDEX = "OrdersZIndex"
