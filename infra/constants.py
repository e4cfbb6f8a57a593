"""Names shared by the CDK app, the local cloud and the tests (one place, imported everywhere)."""

from __future__ import annotations

from importlib.metadata import version

STACK_NAME = "Tatami"

# Lambda runtime and the public Powertools layer. pyproject.toml pins the Powertools release (the
# one place to bump it); the layer is the version AWS published for that release, so what the tests
# run locally is what runs in Lambda. Synthesis fails on a release this table does not know.
LAMBDA_PYTHON = "python3.14"
POWERTOOLS_LAYER_ACCOUNT = "017000801446"
POWERTOOLS_LAYER_NAME = "AWSLambdaPowertoolsPythonV3-python314-arm64"
POWERTOOLS_LAYER_VERSIONS = {"3.31.1": 36}  # release -> layer version (Powertools' docs list them)
POWERTOOLS_VERSION = version("aws-lambda-powertools")
if POWERTOOLS_VERSION not in POWERTOOLS_LAYER_VERSIONS:
    raise RuntimeError(
        f"aws-lambda-powertools {POWERTOOLS_VERSION} has no layer version in infra/constants.py: add the "
        "version Powertools published for it (its docs' Lambda layer table) to POWERTOOLS_LAYER_VERSIONS"
    )
POWERTOOLS_LAYER_VERSION = POWERTOOLS_LAYER_VERSIONS[POWERTOOLS_VERSION]
# Regions where Powertools publishes its arm64 layers (its docs' table): the stack's rule refuses a
# deployment anywhere else, where the layer ARN would not resolve. The China and GovCloud partitions
# publish from other accounts with other versions, so cdk.json targets the `aws` partition only.
POWERTOOLS_LAYER_REGIONS = (
    "af-south-1", "ap-east-1", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3", "ap-south-1",
    "ap-south-2", "ap-southeast-1", "ap-southeast-2", "ap-southeast-3", "ap-southeast-4",
    "ap-southeast-5", "ap-southeast-7", "ca-central-1", "eu-central-1", "eu-central-2", "eu-north-1",
    "eu-south-1", "eu-south-2", "eu-west-1", "eu-west-2", "eu-west-3", "il-central-1", "me-central-1",
    "me-south-1", "mx-central-1", "sa-east-1", "us-east-1", "us-east-2", "us-west-1", "us-west-2",
)  # fmt: skip

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
