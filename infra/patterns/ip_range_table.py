"""IpRangeTable: IP ranges looked up in one Query per address (seed 003), on a table of its own.

The table, as `tatami_functions.ip_lookup.table` declares it: partition key ``pk`` (String: dataset
version, address family and prefix, e.g. ``v3#4#8.0.0.0/8``), sort key ``sk`` (Binary: the range's
first address, big-endian, 4 or 16 bytes). A lookup is one Query, ``pk = prefix AND sk <= address``,
newest first, ``Limit=1``: 0.5 RCU. The lookup function is one REST handler (`GET /ip/{address}`,
`POST /ip/lookups`) any API Gateway routes to; `tatami load-ip` loads a dataset into the table.

It stands alone: it brings its table, its function code and its layers
(`infra.constructs.pattern_functions`).
"""

from __future__ import annotations

from collections.abc import Sequence

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from infra.constructs.data_table import DataTable, TableCapacity, schema_props
from infra.constructs.pattern_functions import PatternFunctions
from infra.constructs.service_function import ServiceFunction, add_environment
from tatami_functions.ip_lookup.settings import DEFAULT_TTL, LookupSettings
from tatami_functions.ip_lookup.table import RANGES

__all__ = ["IpRangeTable"]

DEFAULT_POINTER_TTL = Duration.seconds(DEFAULT_TTL)  # the alias cache of each function container


class IpRangeTable(Construct):
    """The ranges table and its lookup function.

    Parameters
    ----------
    capacity : how the table pays for throughput; pre-warm it before a first big load (seed 003).
    pointer_ttl : how long a function container keeps the dataset alias it read.
    functions : how the function is made (layers, service name, safe deployments); default: the
        stack's own layers, service ``ip_lookup``.
    deletion_protection, replica_regions, removal_policy : for the table.

    Attributes: ``table``; ``function`` (the lookup handler; route to it with ``LambdaIntegration``).
    ``grant_lookup(function)`` gives a function of yours the same access.

    For example (not run as a doctest)::

        ranges = IpRangeTable(stack, "Ranges")
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        capacity: TableCapacity | None = None,
        pointer_ttl: Duration = DEFAULT_POINTER_TTL,
        functions: PatternFunctions | None = None,
        deletion_protection: bool = True,
        replica_regions: Sequence[str] = (),
        removal_policy: RemovalPolicy = RemovalPolicy.RETAIN,
    ) -> None:
        super().__init__(scope, construct_id)
        functions = functions or PatternFunctions()
        self.table = DataTable(
            self,
            "Ranges",
            **schema_props(RANGES),
            capacity=capacity,
            deletion_protection=deletion_protection,
            replica_regions=replica_regions,
            removal_policy=removal_policy,
        )
        self.pointer_ttl = pointer_ttl
        self.function = ServiceFunction(
            self,
            "LookupFunction",
            layers=functions.layers_in(self),
            service=functions.service_or("ip_lookup"),
            handler="tatami_functions.ip_lookup.handler.handler",
            description="IP range lookup: one Query per address (GET /ip/{address}, POST /ip/lookups)",
        )
        self.grant_lookup(self.function)

    def grant_lookup(self, function: lambda_.Function) -> None:
        """The alias item (GetItem) and the range below an address (Query): nothing else, no streams;
        the table's name and the alias cache's lifetime in `function`'s environment."""
        self.table.grant(function, "dynamodb:GetItem", "dynamodb:Query")
        add_environment(
            function,
            LookupSettings.environment(
                table=self.table.table_name, alias_ttl_seconds=self.pointer_ttl.to_seconds()
            ),
        )
