"""The tatami stack: shared layers, the one REST API, and every service construct on it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aws_cdk import CfnOutput, Stack
from aws_cdk import aws_s3 as s3
from constructs import Construct

from infra.constructs.buckets import WorkshopBucket
from infra.constructs.page_tokens import PageTokenKey
from infra.constructs.service_api import ApiAuth, ServiceApi
from infra.constructs.service_function import SharedLayers
from infra.constructs.shared import Shared
from infra.services.businesses import BusinessesService
from infra.services.campaigns import CampaignsService
from infra.services.carts import CartsService
from infra.services.counters import CountersService
from infra.services.devices import DevicesService
from infra.services.docs import DocsService
from infra.services.documents import DocumentsService
from infra.services.employees import EmployeesService
from infra.services.forum import ForumService
from infra.services.invoices import InvoicesService
from infra.services.ip_lookup import IpLookupService, LookupCache
from infra.services.lockers import LockersService
from infra.services.olap import OlapService, exportable_tables
from infra.services.orders import OrdersService
from infra.services.places import PlacesService
from infra.services.replication import ReplicationService
from infra.stacks.selection import CONTEXT_KEY, ServiceSelection
from tatami_functions import stack_outputs


@dataclass(frozen=True)
class StackSettings:
    """Deployment choices read from CDK context `tatami` (see cdk.json)."""

    auth: ApiAuth = ApiAuth.IAM
    deletion_protection: bool = True
    replica_regions: tuple[str, ...] = field(default_factory=tuple)
    api_gateway_cloud_watch_role: bool = False  # the account-wide logging role: set it only when asked

    @classmethod
    def from_context(cls, context: Mapping[str, Any] | None) -> StackSettings:
        context = context or {}
        return cls(
            auth=ApiAuth(str(context.get("auth", ApiAuth.IAM.value))),
            deletion_protection=bool(context.get("deletionProtection", True)),
            replica_regions=tuple(str(region) for region in context.get("replicaRegions") or []),
            api_gateway_cloud_watch_role=bool(context.get("apiGatewayCloudWatchRole", False)),
        )


class TatamiStack(Stack):
    """The shared parts and the services CDK context `services` selects (all by default)."""

    def __init__(
        self, scope: Construct, construct_id: str, *, settings: StackSettings | None = None, **kwargs: Any
    ) -> None:
        super().__init__(scope, construct_id, **kwargs)
        settings = settings or StackSettings()
        api = ServiceApi(
            self, "Api", auth=settings.auth, cloud_watch_role=settings.api_gateway_cloud_watch_role
        )
        self.shared = Shared(
            layers=SharedLayers(self, "Layers"),
            api=api,
            page_tokens=PageTokenKey(self, "PageTokens"),
            deletion_protection=settings.deletion_protection,
            replica_regions=settings.replica_regions,
        )
        selection = ServiceSelection.from_context(self.node.try_get_context(CONTEXT_KEY))
        services = self._services()
        selection.check(services)
        for name, build in services.items():
            if selection.includes(name):
                build()
        DocsService(self, "Docs", shared=self.shared, services=selection.names)
        CfnOutput(self, stack_outputs.OUTPUT_API_URL, value=api.rest_api.url)
        CfnOutput(self, stack_outputs.OUTPUT_OPENAPI_URL, value=api.rest_api.url_for_path("/openapi.json"))

    def _services(self) -> dict[str, Callable[[], object]]:
        """Each service by its package's name, in the order they are built; each adds its tables,
        functions and routes. The construct ids are the ones the services were first deployed under:
        their tables keep their logical IDs."""
        shared = self.shared
        ip_cache = LookupCache.from_context(self.node.try_get_context("tatami"))  # off unless cdk.json asks
        return {
            "counters": lambda: CountersService(self, "Counters", shared=shared),
            "forum": lambda: ForumService(self, "ForumModel", shared=shared),
            "orders": lambda: OrdersService(self, "OrdersModel", shared=shared),
            "businesses": lambda: BusinessesService(self, "BusinessesModel", shared=shared),
            "devices": lambda: DevicesService(
                self._workshop(), "DeviceLogs", shared=shared, bucket=self._bucket()
            ),
            "carts": lambda: CartsService(self._workshop(), "Carts", shared=shared),
            "documents": lambda: DocumentsService(
                self._workshop(), "Documents", shared=shared, bucket=self._bucket()
            ),
            "lockers": lambda: LockersService(self._workshop(), "Lockers", shared=shared),
            "campaigns": lambda: CampaignsService(self._workshop(), "CampaignUsers", shared=shared),
            "ip_lookup": lambda: IpLookupService(self, "IpLookup", shared, cache=ip_cache),
            "invoices": lambda: InvoicesService(self, "InvoicesLab", shared=shared),
            "employees": lambda: EmployeesService(self, "EmployeesLab", shared=shared),
            "replication": lambda: ReplicationService(self, "ReplicationLab", shared=shared),
            "places": lambda: PlacesService(self, "Places", shared=shared),
            # Analytics read exports of every table with point-in-time recovery (seed 004: OLAP goes out
            # through S3), so this comes after every service.
            "olap": lambda: OlapService(self, "Olap", shared, tables=exportable_tables(self)),
        }

    def _workshop(self) -> Construct:
        """Seed 004's services share one scope (their resources keep the logical IDs they were deployed
        with, "Workshop...") and one bucket (document bodies, the device logs' archive)."""
        found = self.node.try_find_child("Workshop")
        return found if isinstance(found, Construct) else Construct(self, "Workshop")

    def _bucket(self) -> s3.IBucket:
        workshop = self._workshop()
        found = workshop.node.try_find_child("Storage")
        if isinstance(found, WorkshopBucket):
            return found.bucket
        bucket = WorkshopBucket(workshop, "Storage").bucket
        CfnOutput(workshop, "BucketName", key=stack_outputs.OUTPUT_WORKSHOP_BUCKET, value=bucket.bucket_name)
        return bucket
