"""Point each table's Glue table at its newest complete full export, so Athena reads that snapshot.

A full export lands under a fresh id; the Glue table `raw_<key>` reads one data folder, so after
every new export its location moves (UpdateTable needs the whole table input: the current one with
the location changed). Translates `ClientError` into `CatalogError`.
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from tatami_functions.olap.exceptions import CatalogError

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


def s3_location(bucket: str, folder: str) -> str:
    """The S3 URL of a folder of the bucket.

    >>> s3_location("b", "exports/orders/AWSDynamoDB/01-ab/data/")
    's3://b/exports/orders/AWSDynamoDB/01-ab/data/'
    """
    return f"s3://{bucket}/{folder}"


def publish(glue: Any, database: str, table: str, location: str) -> bool:
    """Make `database.table` read `location`; False when it already does (nothing written).

    >>> publish(boto3.client("glue"), "tatami_olap", "raw_orders", "s3://b/.../data/")  # doctest: +SKIP
    True
    """
    try:
        current = glue.get_table(DatabaseName=database, Name=table)["Table"]
        if current.get("StorageDescriptor", {}).get("Location") == location:
            return False
        table_input = {key: current[key] for key in _TABLE_INPUT if key in current}
        table_input["StorageDescriptor"] = {**current.get("StorageDescriptor", {}), "Location": location}
        glue.update_table(DatabaseName=database, TableInput=table_input)
    except (ClientError, BotoCoreError) as exc:
        raise CatalogError(f"cannot point Glue table {database}.{table} at {location}: {exc}") from exc
    return True
