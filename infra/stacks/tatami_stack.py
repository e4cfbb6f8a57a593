"""The tatami stack: shared layers, the one REST API, and every service construct on it."""

from __future__ import annotations

from dataclasses import dataclass, field

from aws_cdk import CfnOutput, Stack
from constructs import Construct

from infra import constants
from infra.constructs.service_api import ApiAuth, Route, ServiceApi
from infra.constructs.service_function import ServiceFunction, SharedLayers


@dataclass(frozen=True)
class StackSettings:
    """Deployment choices read from CDK context `tatami` (see cdk.json)."""

    auth: ApiAuth = ApiAuth.IAM
    deletion_protection: bool = True
    replica_regions: tuple[str, ...] = field(default_factory=tuple)

    @classmethod
    def from_context(cls, context: dict[str, object] | None) -> StackSettings:
        context = context or {}
        return cls(
            auth=ApiAuth(str(context.get("auth", ApiAuth.IAM.value))),
            deletion_protection=bool(context.get("deletionProtection", True)),
            replica_regions=tuple(str(r) for r in context.get("replicaRegions", []) or []),  # type: ignore[attr-defined]
        )


class TatamiStack(Stack):
    def __init__(
        self, scope: Construct, construct_id: str, *, settings: StackSettings | None = None, **kwargs: object
    ) -> None:
        super().__init__(scope, construct_id, **kwargs)  # type: ignore[arg-type]
        self.settings = settings or StackSettings()
        self.layers = SharedLayers(self, "Layers")
        self.api = ServiceApi(self, "Api", auth=self.settings.auth)
        service_packages: list[str] = []
        self._add_docs(service_packages)
        CfnOutput(self, constants.OUTPUT_API_URL, value=self.api.rest_api.url)
        CfnOutput(self, constants.OUTPUT_OPENAPI_URL, value=self.api.rest_api.url_for_path("/openapi.json"))

    def _add_docs(self, service_packages: list[str]) -> None:
        docs = ServiceFunction(
            self,
            "DocsFunction",
            layers=self.layers,
            service="docs",
            handler="docs.handler.handler",
            packages=["docs", *service_packages],
            description="Serves the merged OpenAPI document of every route",
        )
        self.api.add_routes(docs, [Route("GET", "/openapi.json")])
