#!/usr/bin/env python3
"""An app of its own that adopts two of tatami's patterns: property listings searched by any box of
price x floor area x date listed (`ZOrderIndex` on its own table), and a view counter per listing
(`ShardedCounter`), behind its own REST API. It imports only the public constructs (`infra.patterns`)
and the `zorder`/`zindex` library; its search function is its own code (functions/).

    .venv/bin/python examples/listings/app.py [OUTDIR]      # or `npx cdk synth` in this folder
    .venv/bin/tatami local --app examples/listings          # serve it on the local cloud
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")

import aws_cdk as cdk
from aws_cdk import Acknowledgment, Validations
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from cdk_nag import AwsSolutionsChecks
from constructs import IConstruct
from declaration import LISTINGS  # beside this file (a script's folder is on its path)

from infra.patterns import ShardedCounter, ZOrderIndex

HERE = Path(__file__).resolve().parent
FUNCTIONS = HERE / "functions"
STACK = "Listings"
BASIC_EXECUTION = "arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"


class ListingsStack(cdk.Stack):
    """The listings table and its Z index, the view counter, the search function and the API."""

    def __init__(self, scope: cdk.App, construct_id: str) -> None:
        super().__init__(scope, construct_id, description="tatami example: listings by price x area x date")
        table = dynamodb.TableV2(
            self,
            "Listings",
            partition_key=dynamodb.Attribute(name="id", type=dynamodb.AttributeType.STRING),
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            removal_policy=cdk.RemovalPolicy.DESTROY,  # an example: `cdk destroy` leaves nothing
        )
        index = ZOrderIndex(self, "ListingsIndex", table=table, declaration=LISTINGS)
        views = ShardedCounter(
            self, "Views", deletion_protection=False, removal_policy=cdk.RemovalPolicy.DESTROY
        )
        search = self._search_function(index)
        api = self._api()
        listings = api.root.add_resource("listings")
        _route(listings.add_resource("search"), "GET", search)
        counter = api.root.add_resource("counters").add_resource("{name}")
        _route(counter, "GET", views.reader)
        _route(counter, "PUT", views.writer)
        _route(counter.add_resource("increments"), "POST", views.writer)
        cdk.CfnOutput(self, "ListingsTable", value=table.table_name)
        cdk.CfnOutput(self, "ApiUrl", value=api.url)

    def _search_function(self, index: ZOrderIndex) -> lambda_.Function:
        search = lambda_.Function(
            self,
            "Search",
            runtime=lambda_.Runtime.PYTHON_3_13,
            architecture=lambda_.Architecture.ARM_64,  # the layers' architecture
            handler="listings_search.handler.handler",
            code=lambda_.Code.from_asset(str(FUNCTIONS), exclude=["**/__pycache__"]),
            layers=[index.layers.zorder],  # zorder and zindex
            memory_size=1769,  # planning is CPU-bound Python: one full vCPU
            timeout=cdk.Duration.seconds(25),
        )
        index.grant_search(search)
        _acknowledge(
            search,
            f"AwsSolutions-IAM4[Policy::{BASIC_EXECUTION}]",
            "The basic execution role's log writes, as any small app has.",
        )
        _acknowledge(search, "AwsSolutions-L1", "Python 3.13: the runtime tatami's layers are built for.")
        return search

    def _api(self) -> apigw.RestApi:
        access_logs = logs.LogGroup(
            self,
            "ApiAccessLogs",
            retention=logs.RetentionDays.ONE_MONTH,
            removal_policy=cdk.RemovalPolicy.DESTROY,
        )
        api = apigw.RestApi(
            self,
            "Api",
            cloud_watch_role=False,  # the account's API Gateway logging role is not this app's to set
            deploy_options=apigw.StageOptions(
                stage_name="v1",
                access_log_destination=apigw.LogGroupLogDestination(access_logs),
                access_log_format=apigw.AccessLogFormat.clf(),
            ),
        )
        _acknowledge(
            api, "AwsSolutions-APIG2", "The handlers validate every parameter and answer 400 naming it."
        )
        _acknowledge(
            api, "AwsSolutions-APIG3", "WAF is the account's decision: attach a web ACL to the stage."
        )
        _acknowledge(
            api,
            "AwsSolutions-APIG6",
            "Execution logs need the account-wide logging role; access logs are on.",
        )
        _acknowledge(api, "AwsSolutions-COG4", "Callers sign with IAM (SigV4), not Cognito user pools.")
        return api


def _route(resource: apigw.Resource, method: str, function: lambda_.IFunction) -> None:
    resource.add_method(
        method, apigw.LambdaIntegration(function), authorization_type=apigw.AuthorizationType.IAM
    )


def _acknowledge(construct: IConstruct, rule: str, reason: str) -> None:
    Validations.of(construct).acknowledge(Acknowledgment(id=f"AwsSolutions::{rule}", reason=reason))


def create_app(outdir: str | None = None) -> cdk.App:
    context = json.loads((HERE / "cdk.json").read_text())["context"]  # as `cdk synth` would read it
    app = cdk.App(outdir=outdir, context=context)
    ListingsStack(app, STACK)
    Validations.of(app).add_plugins(AwsSolutionsChecks(app, verbose=True))
    return app


if __name__ == "__main__":
    create_app(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CDK_OUTDIR", "cdk.out")).synth()
