"""Every AWS call of the export: DynamoDB's export API, the bucket's export folders, the Glue tables.

Each is a `common.repository.Repository` with `common.clients.EXPORT_CALLS`, so every SDK error
leaves here as the export's own: `ExportError` (DynamoDB, S3) or `CatalogError` (Glue), naming what
failed; a run reports it as that table's failure and goes on with the others. Which exports exist is
read from the bucket: every export has a folder `<prefix>/AWSDynamoDB/<export id>/`, and its ARN is
`<table ARN>/export/<export id>` (ListExports would need IAM on every resource, `*`). `OlapRepository`
holds the three; `repository()` is the function's one, the CLI makes one of its own clients.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Self

from botocore.exceptions import ClientError

from tatami_functions.common.clients import EXPORT_CALLS
from tatami_functions.common.repository import Repository
from tatami_functions.olap.exceptions import CatalogError, ExportError
from tatami_functions.olap.exports import FULL, INCREMENTAL, ExportRecord
from tatami_functions.olap.layout import EXPORTS_FOLDER

if TYPE_CHECKING:  # the client types the repositories' base classes name
    from mypy_boto3_dynamodb import DynamoDBClient  # noqa: F401
    from mypy_boto3_s3 import S3Client  # noqa: F401

PITR_OFF = "PointInTimeRecoveryUnavailableException"
VALIDATION = "ValidationException"
# The TableInput fields GetTable returns that UpdateTable accepts back (the rest are read-only).
_TABLE_INPUT = (
    "Name",
    "Description",
    "Owner",
    "Retention",
    "StorageDescriptor",
    "PartitionKeys",
    "TableType",
    "Parameters",
)


class ExportsRepository(Repository["DynamoDBClient"]):
    """DynamoDB's export API: describe an export, start a full or an incremental one.

    For example (not run as a doctest)::

        exports = ExportsRepository(boto3.client("dynamodb"))
        exports.start_full("arn:...:table/T", "bucket", "exports/orders", "run-1").status
        # -> 'IN_PROGRESS'
    """

    client_config, noun, unavailable = EXPORT_CALLS, "", ExportError

    @classmethod
    def _from_env(cls) -> Self:
        return cls()

    def describe(self, export_arn: str) -> ExportRecord:
        response = self._call("describe_export", action=f"describe export {export_arn}", ExportArn=export_arn)
        return ExportRecord.from_description(response["ExportDescription"])

    def start_full(self, table_arn: str, bucket: str, s3_prefix: str, token: str) -> ExportRecord:
        return self._start(table_arn, bucket, s3_prefix, token, ExportType=FULL)

    def start_incremental(
        self, table_arn: str, bucket: str, s3_prefix: str, token: str, since: datetime, until: datetime
    ) -> ExportRecord:
        """Changes from `since` to `until` (15 minutes to 24 hours), with old and new images."""
        specification = {
            "ExportFromTime": since,
            "ExportToTime": until,
            "ExportViewType": "NEW_AND_OLD_IMAGES",
        }
        return self._start(
            table_arn,
            bucket,
            s3_prefix,
            token,
            ExportType=INCREMENTAL,
            IncrementalExportSpecification=specification,
        )

    def _start(self, table_arn: str, bucket: str, s3_prefix: str, token: str, **kind: Any) -> ExportRecord:
        pitr_off = ExportError(
            f"{table_arn}: point-in-time recovery is off; exports need it (DataTable turns it on)"
        )
        try:
            response = self._call(
                "export_table_to_point_in_time",
                errors={PITR_OFF: pitr_off},
                action=f"export {table_arn}",
                TableArn=table_arn,
                S3Bucket=bucket,
                S3Prefix=s3_prefix,
                S3SseAlgorithm="AES256",
                ExportFormat="DYNAMODB_JSON",
                ClientToken=token,
                **kind,
            )
        except ExportError as exc:
            # A refused request is for the operator to read (no caller of this function sees it):
            # DynamoDB's own words say what to change (an incremental window too short, say).
            cause = exc.__cause__
            if isinstance(cause, ClientError) and cause.response["Error"]["Code"] == VALIDATION:
                raise ExportError(
                    f"cannot export {table_arn}: {cause.response['Error']['Message']}"
                ) from cause
            raise
        return ExportRecord.from_description(response["ExportDescription"])


class ExportFoldersRepository(Repository["S3Client"]):
    """The export folders in the bucket: which exports of a table exist."""

    service, client_config, unavailable = "s3", EXPORT_CALLS, ExportError

    @classmethod
    def _from_env(cls) -> Self:
        return cls()

    def export_ids(self, bucket: str, s3_prefix: str) -> list[str]:
        """The ids of the exports under `s3_prefix` (they begin with their start time: they sort by it)."""
        folder = f"{s3_prefix}/{EXPORTS_FOLDER}/"
        ids: list[str] = []
        more: dict[str, Any] = {}
        while True:
            page = self._call(
                "list_objects_v2",
                action=f"list the exports in s3://{bucket}/{folder}",
                Bucket=bucket,
                Prefix=folder,
                Delimiter="/",
                **more,
            )
            ids += [entry["Prefix"][len(folder) :].rstrip("/") for entry in page.get("CommonPrefixes", [])]
            if not page.get("IsTruncated"):
                return ids
            more = {"ContinuationToken": page["NextContinuationToken"]}


class CatalogRepository(Repository[Any]):
    """The Glue tables Athena reads: each points at its table's newest complete full export."""

    service, client_config, unavailable = "glue", EXPORT_CALLS, CatalogError

    @classmethod
    def _from_env(cls) -> Self:
        return cls()

    def publish(self, database: str, table: str, location: str) -> bool:
        """Make `database.table` read `location`; False when it already does (nothing written).

        UpdateTable needs the whole table input: the current one with the location changed.
        """
        action = f"point Glue table {database}.{table} at {location}"
        current = self._call("get_table", action=action, DatabaseName=database, Name=table)["Table"]
        if current.get("StorageDescriptor", {}).get("Location") == location:
            return False
        table_input = {key: current[key] for key in _TABLE_INPUT if key in current}
        table_input["StorageDescriptor"] = {**current.get("StorageDescriptor", {}), "Location": location}
        self._call("update_table", action=action, DatabaseName=database, TableInput=table_input)
        return True


@dataclass(frozen=True)
class OlapRepository:
    """The export's three: the export API, the export folders, the Glue catalog."""

    exports: ExportsRepository
    folders: ExportFoldersRepository
    catalog: CatalogRepository

    @classmethod
    def of(cls, dynamodb: Any, s3: Any, glue: Any) -> OlapRepository:
        """The repositories of these clients (the CLI's, a test's stubs)."""
        return cls(ExportsRepository(dynamodb), ExportFoldersRepository(s3), CatalogRepository(glue))


def repository() -> OlapRepository:
    """The function's repositories (each created once per execution environment)."""
    return OlapRepository(
        ExportsRepository.from_environment(),
        ExportFoldersRepository.from_environment(),
        CatalogRepository.from_environment(),
    )
