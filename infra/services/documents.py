"""The documents service (seed 004): its table, its API function and routes, its grant on the
workshop bucket's `documents/` prefix."""

from __future__ import annotations

from aws_cdk import aws_s3 as s3
from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.buckets import grant_objects
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_indexes, grant_table
from tatami_functions import stack_outputs
from tatami_functions.documents.reports import BODY_PREFIX
from tatami_functions.documents.settings import DocumentsSettings
from tatami_functions.documents.table import BY_USER, DOCUMENTS


class DocumentsService(Construct):
    """The documents table (`.table`, as "Default": it keeps the logical ID it had as the scope's
    "Documents") and the function serving the document routes, with large bodies in `bucket`.

    For example (not run as a doctest)::

        DocumentsService(workshop, "Documents", shared=shared, bucket=bucket)
    """

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared, bucket: s3.IBucket) -> None:
        super().__init__(scope, construct_id)
        self.table = shared.data_table(
            self, "Default", DOCUMENTS, output=stack_outputs.OUTPUT_DOCUMENTS_TABLE
        )
        environment = DocumentsSettings.environment(table=self.table.table_name, bucket=bucket.bucket_name)
        self.function = ApiFunction(
            self,
            "Function",
            shared=shared,
            service="documents",
            environment=environment,
            description="Documents of seed 004: large bodies out of the list path (REST routes)",
        )
        grant_table(self.function, self.table, "GetItem", "PutItem", "UpdateItem", "DeleteItem")
        grant_indexes(self.function, self.table, [BY_USER.name], "Query")
        # Bodies are written, read and deleted by key. A delete on the versioned bucket leaves the
        # body recoverable for 30 days; s3:DeleteObjectVersion (a permanent delete) is not granted.
        grant_objects(
            self.function, bucket, f"{BODY_PREFIX}*", "s3:GetObject", "s3:PutObject", "s3:DeleteObject"
        )
