"""ZOrderIndex: a stream-maintained sparse Z-order GSI on any table, for multi-attribute box search.

Given a table and a ``zorder.Schema`` it adds a GSI whose partition key is a *bucket* (the index name and
the address's top ``bucket_bits`` bits, so writes spread over ``2**bucket_bits`` partitions) and whose sort
key is the binary Z-address; items lacking an indexed attribute carry neither key, so the GSI is sparse.
It turns the table's stream on (NEW_AND_OLD_IMAGES) and runs a maintainer on it: partial batch failures,
bisection, bounded retries and record age, and an on-failure queue. ``grant_search(function)`` gives a
search function the same schema (JSON in its environment) and read access to the index.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from aws_cdk import Duration, Stack
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from cdk_nag import NagPackSuppression, NagSuppressions
from constructs import Construct

from infra.constructs.service_function import ServiceFunction
from infra.constructs.shared import Shared
from infra.constructs.stream_consumer import stream_failure_queue, subscribe_to_stream
from places.settings import IndexSettings
from zorder import Schema

_GSI_ARNS = NagPackSuppression(
    id="AwsSolutions-IAM5",
    reason="CDK's table grant names the table's indexes as <table>/index/*; the statement lists only the "
    "DynamoDB actions the function calls, on this table.",
    applies_to=[{"regex": "/^Resource::<.*Table.*\\.Arn>/index/\\*$/"}],
)


class ZOrderIndex(Construct):
    """A sparse Z-order GSI on ``table`` plus its stream maintainer.

    >>> ZOrderIndex(stack, "ZIndex", shared=shared, table=table, schema=schema, index_name="places-z",
    ...             bucket_bits=6, service="places",
    ...             maintainer_handler="places.maintainer_handler.handler")  # doctest: +SKIP
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        shared: Shared,
        table: dynamodb.TableV2,
        schema: Schema,
        index_name: str,
        bucket_bits: int,
        service: str,
        maintainer_handler: str,
        projection: dynamodb.ProjectionType = dynamodb.ProjectionType.KEYS_ONLY,
        non_key_attributes: Sequence[str] = (),
        key_attribute: str = "id",
        address_attribute: str = "zaddr",
        bucket_attribute: str = "zbucket",
        domain: Mapping[str, tuple[float | int | None, float | int | None]] | None = None,
        batch_size: int = 100,
        retry_attempts: int = 5,
        max_record_age: Duration | None = None,
    ) -> None:
        super().__init__(scope, construct_id)
        self.table, self.schema, self.index_name, self.shared = table, schema, index_name, shared
        # The functions rebuild these settings from their environment (lambdas/places/settings.py);
        # IndexSettings also checks bucket_bits against the schema.
        self.environment = IndexSettings(
            table=table.table_name,
            index=index_name,
            schema=schema,
            bucket_bits=bucket_bits,
            address_attribute=address_attribute,
            bucket_attribute=bucket_attribute,
            key_attribute=key_attribute,
            domain=dict(domain or {}),
        ).to_env()
        table.add_global_secondary_index(
            index_name=index_name,
            partition_key=dynamodb.Attribute(name=bucket_attribute, type=dynamodb.AttributeType.STRING),
            sort_key=dynamodb.Attribute(name=address_attribute, type=dynamodb.AttributeType.BINARY),
            projection_type=projection,
            non_key_attributes=list(non_key_attributes) or None,
        )
        self._enable_stream()
        self.failures = stream_failure_queue(self, "MaintainerFailures", consumer="index maintainer")
        self.maintainer = self._maintainer(service, maintainer_handler)
        subscribe_to_stream(
            self.maintainer,
            table,
            self.failures,
            batch_size=batch_size,
            batching_window=Duration.seconds(1),
            retry_attempts=retry_attempts,
            max_record_age=max_record_age or Duration.hours(6),
            # REMOVE records need nothing: the GSI entry leaves with the item.
            filters=[
                lambda_.FilterCriteria.filter({"eventName": lambda_.FilterRule.or_("INSERT", "MODIFY")})
            ],
        )
        # The write-back is a conditional UpdateItem; nothing else.
        table.grant(self.maintainer, "dynamodb:UpdateItem")
        NagSuppressions.add_resource_suppressions(self.maintainer, [_GSI_ARNS], apply_to_children=True)

    def _enable_stream(self) -> None:
        """NEW_AND_OLD_IMAGES on the table, whatever it was created with (other readers keep working)."""
        resource = self.table.node.default_child
        assert isinstance(resource, dynamodb.CfnGlobalTable)
        resource.add_property_override("StreamSpecification", {"StreamViewType": "NEW_AND_OLD_IMAGES"})

    def _maintainer(self, service: str, handler: str) -> ServiceFunction:
        return ServiceFunction(
            self,
            "Maintainer",
            layers=self.shared.layers,
            service=service,
            handler=handler,
            uses_zorder=True,
            environment=self.environment,
            # A batch of 100 records is at most 100 conditional writes.
            timeout=Duration.seconds(60),
            description=f"Keeps the Z-order index {self.index_name} in step with the table",
        )

    def grant_search(self, function: lambda_.Function, *actions: str) -> None:
        """Give a search function this index's settings and Query/GetItem (statistics) on the table."""
        for name, value in self.environment.items():
            function.add_environment(name, value)
        self.table.grant(function, "dynamodb:Query", "dynamodb:GetItem", *actions)
        NagSuppressions.add_resource_suppressions(function, [_GSI_ARNS], apply_to_children=True)

    def settings_json(self) -> str:
        """The environment as one JSON text: a stack output for the CLI (CloudFormation fills tokens)."""
        return Stack.of(self).to_json_string(self.environment)
