"""The tatami stack: shared layers, the one REST API, and every service construct on it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aws_cdk import CfnOutput, Stack
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
        # Each service adds its tables, functions and the routes its resolver declares.
        CountersService(self, "Counters", shared=self.shared)
        # The ids the services were first deployed under: their tables keep their logical IDs.
        ForumService(self, "ForumModel", shared=self.shared)
        OrdersService(self, "OrdersModel", shared=self.shared)
        BusinessesService(self, "BusinessesModel", shared=self.shared)
        # Seed 004's services share one scope (their resources keep the logical IDs they were deployed
        # with, "Workshop...") and one bucket (document bodies, the device logs' archive).
        workshop = Construct(self, "Workshop")
        workshop_bucket = WorkshopBucket(workshop, "Storage").bucket
        CfnOutput(
            workshop,
            "BucketName",
            key=stack_outputs.OUTPUT_WORKSHOP_BUCKET,
            value=workshop_bucket.bucket_name,
        )
        DevicesService(workshop, "DeviceLogs", shared=self.shared, bucket=workshop_bucket)
        CartsService(workshop, "Carts", shared=self.shared)
        DocumentsService(workshop, "Documents", shared=self.shared, bucket=workshop_bucket)
        LockersService(workshop, "Lockers", shared=self.shared)
        CampaignsService(workshop, "CampaignUsers", shared=self.shared)
        ip_cache = LookupCache.from_context(self.node.try_get_context("tatami"))  # off unless cdk.json asks
        IpLookupService(self, "IpLookup", self.shared, cache=ip_cache)
        # The construct ids are the labs' (their tables and queue keep their logical ids).
        InvoicesService(self, "InvoicesLab", shared=self.shared)
        EmployeesService(self, "EmployeesLab", shared=self.shared)
        ReplicationService(self, "ReplicationLab", shared=self.shared)
        PlacesService(self, "Places", shared=self.shared)
        # Analytics read exports of every table with point-in-time recovery (seed 004: OLAP goes out
        # through S3), so this comes after every service.
        OlapService(self, "Olap", self.shared, tables=exportable_tables(self))
        DocsService(self, "Docs", shared=self.shared)
        CfnOutput(self, stack_outputs.OUTPUT_API_URL, value=api.rest_api.url)
        CfnOutput(self, stack_outputs.OUTPUT_OPENAPI_URL, value=api.rest_api.url_for_path("/openapi.json"))
