"""ZOrderIndex: the indexes an ``zindex.IndexedTable`` declares, on any table, kept by a stream maintainer.

For each Z index a sparse GSI whose partition key is a *bucket* (the index name and the address's top
bits, so writes spread) and whose sort key is the binary Z-address; for each sorted index a sparse GSI
whose partition key is a shard and whose sort key is the attribute itself. Items lacking an attribute
carry no index keys, so every GSI is sparse. It turns the table's stream on (NEW_AND_OLD_IMAGES) and runs
the engine's own maintainer (``zindex.lambda_handler``, from the zorder layer: no service code) on it:
partial batch failures, bisection, bounded retries and record age, and an on-failure queue.
``grant_search(function)`` gives a search function the declaration and read access to the indexes.

It stands alone: any CDK app's ``TableV2`` and a declaration are all it needs; it brings its layers
(`infra.constructs.pattern_functions`). tatami's own services pass theirs and their service name.

DynamoDB adds or removes one GSI per table update: add indexes to a deployed table one deploy at a time.
"""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from infra.constructs.monitoring_targets import ReportsIndexLag
from infra.constructs.pattern_functions import PatternFunctions
from infra.constructs.service_function import ServiceFunction, add_environment
from infra.constructs.stream_consumer import stream_failure_queue, subscribe_to_stream
from infra.constructs.table_grants import grant_indexes, grant_table
from zindex import ENV, IndexedTable
from zindex.kinds import Index
from zindex.status import BATCH_SIZE_ENV

MAINTAINER_HANDLER = "zindex.lambda_handler.handler"
_TYPES = {  # the kinds name their GSI key types as DynamoDB does
    "S": dynamodb.AttributeType.STRING,
    "N": dynamodb.AttributeType.NUMBER,
    "B": dynamodb.AttributeType.BINARY,
}


class ZOrderIndex(Construct, ReportsIndexLag):
    """The declared indexes on ``table`` plus their stream maintainer.

    Parameters
    ----------
    table : the ``TableV2`` to index (its key must be the declaration's key); its stream is turned on.
    declaration : the ``zindex.IndexedTable`` (attributes, their types and domains, the indexes); its
        table name is taken from ``table``.
    functions : how the maintainer is made (layers, service name, safe deployments); default: the
        stack's own layers, service ``zindex``.
    batch_size, retry_attempts, max_record_age : how the maintainer consumes the stream.

    Attributes: ``maintainer`` (the function), ``failures`` (its on-failure queue), ``declaration``,
    ``layers`` (give ``layers.zorder`` to your search function), ``environment`` (what
    ``grant_search`` sets).

    For example (not run as a doctest)::

        index = ZOrderIndex(stack, "ListingsIndex", table=table, declaration=LISTINGS)
        index.grant_search(search_function)
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        table: dynamodb.TableV2,
        declaration: IndexedTable,
        functions: PatternFunctions | None = None,
        batch_size: int = 500,
        retry_attempts: int = 5,
        max_record_age: Duration | None = None,
    ) -> None:
        super().__init__(scope, construct_id)
        functions = functions or PatternFunctions()
        self.table, self.layers = table, functions.layers_in(self)
        self.declaration = declaration.named(table.table_name)
        # The functions rebuild the declaration from their environment (zindex.spec.IndexedTable.from_env).
        self.environment = {ENV: self.declaration.to_json()}
        for index in declaration.indexes:
            self._add_index(declaration, index)
        self._enable_stream()
        self.failures = stream_failure_queue(self, "MaintainerFailures", consumer="index maintainer")
        self.maintainer = ServiceFunction(
            self,
            "Maintainer",
            layers=self.layers,
            service=functions.service_or("zindex"),
            handler=MAINTAINER_HANDLER,
            uses_zorder=True,
            environment={**self.environment, BATCH_SIZE_ENV: str(batch_size)},
            # A batch is at most ``batch_size`` conditional writes, 16 at a time.
            timeout=Duration.seconds(60),
            memory_size=1024,
            description=f"Keeps the indexes of {', '.join(i.name for i in declaration.indexes)} in step",
        )
        subscribe_to_stream(
            self.maintainer,
            table,
            self.failures,
            batch_size=batch_size,
            batching_window=Duration.seconds(1),
            retry_attempts=retry_attempts,
            max_record_age=max_record_age or Duration.hours(6),
            safe_deployment=functions.safe_deployments,
        )
        # The write-back and the status item are conditional/ADD UpdateItems of the table; nothing else.
        grant_table(self.maintainer, table, "UpdateItem")

    def _add_index(self, declaration: IndexedTable, index: Index) -> None:
        (pk, pk_type), (sk, sk_type) = index.gsi_keys(declaration)
        projected = [a for a in declaration.projection if a != sk]
        self.table.add_global_secondary_index(
            index_name=index.name,
            partition_key=dynamodb.Attribute(name=pk, type=_TYPES[pk_type]),
            sort_key=dynamodb.Attribute(name=sk, type=_TYPES[sk_type]),
            projection_type=dynamodb.ProjectionType.INCLUDE
            if projected
            else dynamodb.ProjectionType.KEYS_ONLY,
            non_key_attributes=projected or None,
        )

    def _enable_stream(self) -> None:
        """NEW_AND_OLD_IMAGES on the table, whatever it was created with (other readers keep working)."""
        resource = self.table.node.default_child
        assert isinstance(resource, dynamodb.CfnGlobalTable)
        resource.add_property_override("StreamSpecification", {"StreamViewType": "NEW_AND_OLD_IMAGES"})

    def grant_search(self, function: lambda_.Function) -> None:
        """Give a search function the declaration and what its plans call: a Query of each index, a
        parallel Scan of the table or of an index, GetItem and BatchGetItem of the status and
        statistics items. The function needs the zorder layer (``layers.zorder``) to run ``zindex``."""
        add_environment(function, self.environment)
        grant_table(function, self.table, "Scan", "GetItem", "BatchGetItem")
        grant_indexes(
            function, self.table, [index.name for index in self.declaration.indexes], "Query", "Scan"
        )
