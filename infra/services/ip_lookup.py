"""The IP lookup service (seed 003): the ranges table, the lookup function and its two routes.

The table, as `tatami_functions.ip_lookup.table` declares it: partition key ``pk`` (String: dataset
version, address family and prefix, e.g. ``v3#4#8.0.0.0/8``), sort key ``sk`` (Binary: the range's
first address, big-endian, 4 or 16 bytes). A lookup is one Query, ``pk = prefix AND sk <= address``,
newest first, ``Limit=1``: 0.5 RCU.
Datasets are loaded by ``tatami load-ip``, which writes a new version and switches an alias item.

Hot addresses (seed 004: cache hot reads): the function caches the alias per container, and
``LookupCache`` adds API Gateway's stage cache for ``GET /ip/{address}``. The cache cluster is billed
per hour whatever the traffic and serves the whole shared stage, so it is off unless asked for (in
cdk.json: ``"tatami": {"ipLookupCacheTtlSeconds": 300}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aws_cdk import CfnOutput, Duration, Stack
from aws_cdk import aws_apigateway as apigw
from constructs import Construct

from infra.constructs.api_function import serve_resolver_routes
from infra.constructs.data_table import TableCapacity
from infra.constructs.service_api import ServiceApi
from infra.constructs.shared import Shared
from infra.patterns.ip_range_table import DEFAULT_POINTER_TTL, IpRangeTable
from tatami_functions import stack_outputs

LOOKUP_PATH = "/ip/{address}"
_ADDRESS_PARAMETER = "method.request.path.address"
DEFAULT_CACHE_TTL = Duration.minutes(5)
_CLUSTER_SIZES = ("0.5", "1.6", "6.1", "13.5", "28.4", "58.2", "118", "237")


@dataclass(frozen=True, slots=True)
class LookupCache:
    """API Gateway's cache for ``GET /ip/{address}``: `ttl` per address, a cluster of `cluster_gb` GB.

    For example (not run as a doctest)::

        IpLookupService(stack, "IpLookup", shared,
                        cache=LookupCache(ttl=Duration.minutes(5)))
    """

    ttl: Duration = DEFAULT_CACHE_TTL
    cluster_gb: str = "0.5"

    @classmethod
    def from_context(cls, context: Mapping[str, Any] | None) -> LookupCache | None:
        """The cache asked for in CDK context `tatami` (cdk.json): ``ipLookupCacheTtlSeconds`` (0 or
        absent: no cache) and ``ipLookupCacheClusterGb`` (default "0.5").

        >>> LookupCache.from_context({"ipLookupCacheTtlSeconds": 300}).cluster_gb
        '0.5'
        """
        ttl = int((context or {}).get("ipLookupCacheTtlSeconds") or 0)
        if not ttl:
            return None
        return cls(Duration.seconds(ttl), str((context or {}).get("ipLookupCacheClusterGb", "0.5")))

    def __post_init__(self) -> None:
        if not 0 < self.ttl.to_seconds() <= 3600:
            raise ValueError(f"cache ttl {self.ttl.to_seconds()} s must be within 1..3600 s")
        if self.cluster_gb not in _CLUSTER_SIZES:
            raise ValueError(f"cluster_gb {self.cluster_gb!r} must be one of {', '.join(_CLUSTER_SIZES)}")


class IpLookupService(IpRangeTable):
    """The IP lookup service on the shared API: the `IpRangeTable` pattern (infra/patterns) with its
    routes, the stage cache and the stack output; `table` is the ranges table the loader fills."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        shared: Shared,
        *,
        cache: LookupCache | None = None,
        capacity: TableCapacity | None = None,
        pointer_ttl: Duration = DEFAULT_POINTER_TTL,
    ) -> None:
        super().__init__(
            scope,
            construct_id,
            capacity=capacity,  # pre-warm before a first big load (seed 003) with TableCapacity
            pointer_ttl=pointer_ttl,
            functions=shared.pattern_functions("ip_lookup"),
            deletion_protection=shared.deletion_protection,
            replica_regions=shared.replica_regions,
        )
        serve_resolver_routes(self.function, shared=shared, service="ip_lookup")
        lookup = shared.api.rest_api.root.resource_for_path(LOOKUP_PATH).node.find_child("GET")
        _key_cache_by_address(lookup.node.default_child)
        if cache is not None:
            _enable_stage_cache(shared.api, cache)
        CfnOutput(
            Stack.of(self),
            stack_outputs.OUTPUT_IP_RANGES_TABLE,
            value=self.table.table_name,
            description="IP ranges table (tatami load-ip writes it)",
        )


def _key_cache_by_address(method: object) -> None:
    """Declare the address as the cache key, so no stage-level cache can answer one address for another."""
    assert isinstance(method, apigw.CfnMethod)
    method.add_property_override("RequestParameters", {_ADDRESS_PARAMETER: True})
    method.add_property_override("Integration.CacheKeyParameters", [_ADDRESS_PARAMETER])


def _enable_stage_cache(api: ServiceApi, cache: LookupCache) -> None:
    stage = api.rest_api.deployment_stage.node.default_child
    assert isinstance(stage, apigw.CfnStage)
    stage.cache_cluster_enabled = True
    stage.cache_cluster_size = cache.cluster_gb
    current = stage.method_settings if isinstance(stage.method_settings, list) else []
    settings = [s for s in current if isinstance(s, apigw.CfnStage.MethodSettingProperty)]
    defaults = next(s for s in settings if s.resource_path == "/*")
    lookup = apigw.CfnStage.MethodSettingProperty(
        http_method="GET",
        resource_path="/" + LOOKUP_PATH.replace("/", "~1"),  # API Gateway escapes / as ~1
        caching_enabled=True,
        cache_ttl_in_seconds=int(cache.ttl.to_seconds()),
        cache_data_encrypted=True,
        # A method setting replaces the stage's for that method: carry the stage defaults over.
        data_trace_enabled=defaults.data_trace_enabled,
        logging_level=defaults.logging_level,
        metrics_enabled=defaults.metrics_enabled,
        throttling_burst_limit=defaults.throttling_burst_limit,
        throttling_rate_limit=defaults.throttling_rate_limit,
    )
    stage.method_settings = [*settings, lookup]
