"""What IAM checks for one SDK call: the actions, the resource ARNs and the condition keys (stdlib only).

Most operations need the IAM action of their own name on the resource they name (`dynamodb:Query`
on the table, or on `table/<name>/index/<index>` with an IndexName). The exceptions are those of
the services the app calls: batches and transactions are authorized item by item as their single
operations; S3 names its actions after permissions, not operations (ListObjectsV2 needs
`s3:ListBucket` with the `s3:prefix` condition key); SQS batches need the single action.
An operation this module does not know is checked as `<service>:<Operation>` on `*`.

>>> [r.action for r in requests_for("dynamodb", "dynamodb", "TransactWriteItems", {"TransactItems": [
...     {"Put": {"TableName": "T"}}, {"ConditionCheck": {"TableName": "U"}}]}, "us-east-1", "0")]
['dynamodb:PutItem', 'dynamodb:ConditionCheckItem']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# Every call reaches AWS over TLS (the SDK's default), which the buckets' and queues' policies demand.
BASE_CONTEXT = {"aws:securetransport": "true"}

_S3_ACTIONS = {
    "ListObjects": "ListBucket",
    "ListObjectsV2": "ListBucket",
    "HeadBucket": "ListBucket",
    "ListObjectVersions": "ListBucketVersions",
    "ListMultipartUploads": "ListBucketMultipartUploads",
    "ListParts": "ListMultipartUploadParts",
    "HeadObject": "GetObject",
    "CreateMultipartUpload": "PutObject",
    "UploadPart": "PutObject",
    "CompleteMultipartUpload": "PutObject",
    "CopyObject": "PutObject",
    "UploadPartCopy": "PutObject",
    "DeleteObjects": "DeleteObject",
    "GetBucketLocation": "GetBucketLocation",
}
_S3_VERSIONED = {"GetObject": "GetObjectVersion", "DeleteObject": "DeleteObjectVersion"}
_DYNAMODB_TRANSACT = {"Put": "PutItem", "Update": "UpdateItem", "Delete": "DeleteItem"}
_DYNAMODB_TRANSACT |= {"ConditionCheck": "ConditionCheckItem", "Get": "GetItem"}
_SQS_BATCHES = {
    "SendMessageBatch": "SendMessage",
    "DeleteMessageBatch": "DeleteMessage",
    "ChangeMessageVisibilityBatch": "ChangeMessageVisibility",
}


@dataclass(frozen=True, slots=True)
class IamRequest:
    """One authorization IAM makes: `action` on `resource`, with the request's condition keys."""

    action: str
    resource: str
    context: dict[str, str] = field(default_factory=dict)


def requests_for(
    prefix: str, service: str, operation: str, params: Mapping[str, Any], region: str, account: str
) -> list[IamRequest]:
    """The authorizations one call needs; `prefix` is the IAM service prefix (botocore's signing name)."""
    arns = _Arns(region, account)
    if service == "dynamodb":
        found = _dynamodb(operation, params, arns)
    elif service == "dynamodbstreams":
        found = _streams(operation, params, arns)
    elif service == "s3":
        found = _s3(operation, params)
    elif service == "sqs":
        found = _sqs(operation, params, arns)
    elif service == "glue":
        found = _glue(operation, params, arns)
    elif service == "secretsmanager" and "SecretId" in params:
        found = [(operation, arns.secret(str(params["SecretId"])), {})]
    else:
        found = [(operation, "*", {})]
    return [
        IamRequest(f"{prefix}:{action}", resource, {**BASE_CONTEXT, **extra})
        for action, resource, extra in found
    ]


@dataclass(frozen=True, slots=True)
class _Arns:
    region: str
    account: str

    def table(self, name: str) -> str:
        return (
            name if name.startswith("arn:") else f"arn:aws:dynamodb:{self.region}:{self.account}:table/{name}"
        )

    def queue(self, url_or_name: str) -> str:
        # The name ends the URL. The account is the local cloud's: moto writes its own default
        # account into queue URLs, while the template's ARNs resolve to the local cloud's.
        return f"arn:aws:sqs:{self.region}:{self.account}:{url_or_name.rstrip('/').rsplit('/', 1)[-1]}"

    def secret(self, secret_id: str) -> str:
        if secret_id.startswith("arn:"):
            return secret_id
        return f"arn:aws:secretsmanager:{self.region}:{self.account}:secret:{secret_id}"


Found = list[tuple[str, str, dict[str, str]]]


def _dynamodb(operation: str, params: Mapping[str, Any], arns: _Arns) -> Found:
    if operation in ("BatchGetItem", "BatchWriteItem"):
        return [(operation, arns.table(table), {}) for table in params.get("RequestItems", {})]
    if operation in ("TransactWriteItems", "TransactGetItems"):
        return [
            (_DYNAMODB_TRANSACT[kind], arns.table(str(body.get("TableName", ""))), {})
            for item in params.get("TransactItems", [])
            for kind, body in item.items()
        ]
    table = params.get("TableName") or params.get("TableArn")
    if table is None:
        return [(operation, str(params.get("ExportArn", "*")), {})]
    resource = arns.table(str(table))
    if params.get("IndexName"):
        resource += f"/index/{params['IndexName']}"
    return [(operation, resource, {})]


def _streams(operation: str, params: Mapping[str, Any], arns: _Arns) -> Found:
    if "StreamArn" in params:
        return [(operation, str(params["StreamArn"]), {})]
    if params.get("TableName"):
        return [(operation, arns.table(str(params["TableName"])) + "/stream/*", {})]
    return [(operation, "*", {})]


def _s3(operation: str, params: Mapping[str, Any]) -> Found:
    bucket = params.get("Bucket")
    if bucket is None:
        return [(operation, "*", {})]
    action = _S3_ACTIONS.get(operation, operation)
    if params.get("VersionId"):
        action = _S3_VERSIONED.get(action, action)
    if action in ("ListBucket", "ListBucketVersions", "ListBucketMultipartUploads", "GetBucketLocation"):
        return [(action, f"arn:aws:s3:::{bucket}", {"s3:prefix": str(params.get("Prefix", ""))})]
    keys = [str(params["Key"])] if "Key" in params else []
    keys += [str(o["Key"]) for o in params.get("Delete", {}).get("Objects", [])]
    found: Found = [(action, f"arn:aws:s3:::{bucket}/{key}", {}) for key in keys]
    source = params.get("CopySource")
    if source:
        text = source if isinstance(source, str) else f"{source['Bucket']}/{source['Key']}"
        found.append(("GetObject", f"arn:aws:s3:::{text.lstrip('/').split('?')[0]}", {}))
    return found or [(action, f"arn:aws:s3:::{bucket}", {})]


def _glue(operation: str, params: Mapping[str, Any], arns: _Arns) -> Found:
    """A table's call needs the permission on the catalog, its database and the table (AWS's rule)."""
    database = params.get("DatabaseName")
    if database is None:
        return [(operation, "*", {})]
    table = params.get("Name") or params.get("TableName") or params.get("TableInput", {}).get("Name")
    catalog = f"arn:aws:glue:{arns.region}:{arns.account}"
    found: Found = [(operation, f"{catalog}:catalog", {}), (operation, f"{catalog}:database/{database}", {})]
    if table:
        found.append((operation, f"{catalog}:table/{database}/{table}", {}))
    return found


def _sqs(operation: str, params: Mapping[str, Any], arns: _Arns) -> Found:
    queue = params.get("QueueUrl") or params.get("QueueName")
    action = _SQS_BATCHES.get(operation, operation)
    return [(action, arns.queue(str(queue)) if queue else "*", {})]
