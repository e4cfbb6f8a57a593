"""Each function's first request, and the minimal handler it is compared with.

A first request makes the function create its clients and call AWS once where its work allows: an
API function serves its simplest read (one item by its key, which need not exist: a 404 after one
GetItem is a served request), a stream consumer one record as Lambda delivers it (read from
DynamoDB Local's stream after a real write, so the record is what the poller hands it), the export
function its scheduled run over one table. The docs function's one route serves the OpenAPI
document generated at synthesis and calls nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from _cold_start.world import World
from tatami.local.events.rules import scheduled_event
from tatami.local.events.stream_records import TTL_IDENTITY, aws_stream_arn, lambda_record
from tatami.local.gateway.proxy import RequestData, proxy_event
from tatami.local.gateway.routes import RouteTable, read_routes

MINIMAL = "minimal"
# boto3, a Powertools Logger, one client and one GetItem: what every function's cold start is held to.
MINIMAL_HANDLER = """import os

import boto3
from aws_lambda_powertools import Logger

logger = Logger()
client = boto3.client("dynamodb")


def handler(event, context):
    key = {"id": {"S": event["id"]}}
    found = client.get_item(TableName=os.environ["TABLE_NAME"], Key=key).get("Item")
    return {"statusCode": 200 if found else 404}
"""
MINIMAL_TABLE = "PlacesTable"  # any table keyed by a string `id`: GetItem costs the same on any
MINIMAL_EVENT = {"id": "cold-start"}
# The floor of an API function built as Powertools documents it (and tatami builds them): the REST
# resolver with request validation, Logger and Tracer (botocore traced), one route with a validated
# path parameter, one GetItem. Its first request is the places function's, `GET /places/cold-start`.
API_FLOOR = "powertools-api"
API_FLOOR_HANDLER = """import os
from typing import Annotated, Any

import boto3
from aws_lambda_powertools import Logger, Tracer
from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.openapi.params import Path
from aws_lambda_powertools.logging import correlation_paths

logger = Logger()
tracer = Tracer(auto_patch=False)
app = APIGatewayRestResolver(enable_validation=True)


@app.get("/places/<place_id>")
def get_place(place_id: Annotated[str, Path(pattern="^[A-Za-z0-9_.:-]{1,128}$")]) -> dict[str, Any]:
    tracer.patch(["botocore"])
    client = boto3.client("dynamodb")
    item = client.get_item(TableName=os.environ["TABLE_NAME"], Key={"id": {"S": place_id}}).get("Item")
    if item is None:
        raise NotFoundError(place_id)
    return {"id": place_id}


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
@tracer.capture_lambda_handler
def handler(event, context):
    return app.resolve(event, context)
"""
API_FLOOR_REQUEST = "PlacesApiFunction"  # whose first request it serves

# API functions by their logical id's start: (method, path, body).
API_REQUESTS: dict[str, tuple[str, str, Any]] = {
    "BusinessesModelFunction": ("GET", "/businesses/cold-start", None),
    "CountersReadFunction": ("GET", "/counters/cold-start", None),
    "CountersWriteFunction": ("POST", "/counters/cold-start/increments", {"by": 1}),
    "DocsFunction": ("GET", "/openapi.json", None),
    "EmployeesLabFunction": ("GET", "/employees/1", None),
    "ForumModelFunction": ("GET", "/forums/cold-start", None),
    "InvoicesLabFunction": ("GET", "/invoices/cold-start", None),
    "IpLookupLookupFunction": ("GET", "/ip/192.0.2.1", None),
    "OrdersModelFunction": ("GET", "/orders/cold-start", None),
    "PlacesApiFunction": ("GET", "/places/cold-start", None),
    "WorkshopCampaignUsersFunction": ("GET", "/campaigns/users/cold-start", None),
    "WorkshopCartsFunction": ("GET", "/users/cold-start/cart", None),
    "WorkshopDeviceLogsFunction": ("GET", "/devices/cold-start/logs", None),
    "WorkshopDocumentsFunction": ("GET", "/users/cold-start/documents/report-1", None),
    "WorkshopLockersFunction": ("GET", "/lockers/cold-start", None),
}
# Stream consumers by their logical id's start: the item written to the table they read (whose
# record they get), and whether TTL then deletes it (the archiver reads TTL deletions only).
STREAM_ITEMS: dict[str, tuple[dict[str, Any], bool]] = {
    "PlacesZIndexMaintainer": (
        {"id": {"S": "cold-start"}, "name": {"S": "Cold Start"}, "latitude": {"N": "35.68"},
         "longitude": {"N": "139.69"}, "population": {"N": "1000"}, "country": {"S": "JP"}},
        False,
    ),
    "OrdersModelZIndexMaintainer": (
        {"OrderId": {"S": "cold-start"}, "CustomerId": {"S": "customer-01"}, "Status": {"S": "PENDING"},
         "OrderDate": {"S": "2024-06-01T00:00:00.000Z"}, "Total": {"N": "12.5"}},
        False,
    ),
    "CountersRollupFunction": ({"pk": {"S": "cold-start#0"}, "count": {"N": "1"}, "v": {"N": "1"}}, False),
    "ReplicationLabFunction": ({"PK": {"S": "cold-start"}, "host": {"S": "127.0.0.1"}}, False),
    "WorkshopLogArchiverFunction": (
        {"device_id": {"S": "cold-start"}, "level_with_created_at": {"S": "INFO#2024-06-01T00:00:00.000Z"},
         "created_at": {"S": "2024-06-01T00:00:00.000Z"}, "expires_at": {"N": "1"}},
        True,
    ),
}  # fmt: skip
EXPORT_FUNCTION = "OlapExportFunction"
EXPORT_TABLE = "businesses"  # one small table: a scheduled run over every table repeats the same calls


def first_requests(world: World) -> dict[str, dict[str, Any]]:
    """The first request of every function of the template, by logical id."""
    routes = RouteTable(route for stack in world.assembly.stacks for route in read_routes(stack))
    events = {}
    for logical_id in world.assembly.functions:
        events[logical_id] = _event(world, routes, logical_id)
    return events


def _event(world: World, routes: RouteTable, logical_id: str) -> dict[str, Any]:
    for prefix, (method, path, body) in API_REQUESTS.items():
        if logical_id.startswith(prefix):
            return _api_event(routes, logical_id, method, path, body)
    for prefix, (item, expires) in STREAM_ITEMS.items():
        if logical_id.startswith(prefix):
            return {"Records": [_stream_record(world, logical_id, item, expires)]}
    if logical_id.startswith(EXPORT_FUNCTION):
        (rule,) = [rule for rule in world.assembly.rules if rule.targets[0][0] == logical_id]
        return {**scheduled_event(world.resolver.get_att(rule.logical_id, "Arn")), "tables": [EXPORT_TABLE]}
    raise LookupError(f"no first request for {logical_id}: add one to bench/_cold_start/requests.py")


def _api_event(routes: RouteTable, logical_id: str, method: str, path: str, body: Any) -> dict[str, Any]:
    found = routes.match(method, path)
    if found is None or found[0].function_id != logical_id:
        raise LookupError(f"{method} {path} is not a route of {logical_id}")
    route, params = found
    data = json.dumps(body).encode() if body is not None else b""
    headers = (
        [("Host", "127.0.0.1"), ("Content-Type", "application/json")] if body else [("Host", "127.0.0.1")]
    )
    request = RequestData(method, path, "", headers, data, "127.0.0.1", "127.0.0.1", "cold-start-1")
    return proxy_event(route, params, request, "v1")


def _stream_record(world: World, consumer: str, item: dict[str, Any], expires: bool) -> dict[str, Any]:
    """The stream record of writing `item` (and deleting it by TTL) as Lambda hands it to `consumer`."""
    (mapping,) = [m for m in world.assembly.stream_mappings if m.function_id == consumer]
    table = world.resolver.resolve({"Ref": mapping.table_id})
    dynamodb = world.client("dynamodb")
    dynamodb.put_item(TableName=table, Item=item)
    if expires:
        keys = {name: item[name] for name in _key_names(dynamodb, table)}
        dynamodb.delete_item(TableName=table, Key=keys)
    raw = _last_record(world, world.stream_arns[mapping.table_id])
    record = lambda_record(raw, aws_stream_arn(world.stream_arns[mapping.table_id]), time.time())
    return {**record, "userIdentity": dict(TTL_IDENTITY)} if expires else record


def _key_names(dynamodb: Any, table: str) -> list[str]:
    return [key["AttributeName"] for key in dynamodb.describe_table(TableName=table)["Table"]["KeySchema"]]


def _last_record(world: World, stream_arn: str) -> dict[str, Any]:
    """The newest record of the stream (its shards read from the start)."""
    streams = world.client("dynamodbstreams")
    records: list[Mapping[str, Any]] = []
    for shard in streams.describe_stream(StreamArn=stream_arn)["StreamDescription"]["Shards"]:
        iterator = streams.get_shard_iterator(
            StreamArn=stream_arn, ShardId=shard["ShardId"], ShardIteratorType="TRIM_HORIZON"
        )["ShardIterator"]
        records += streams.get_records(ShardIterator=iterator)["Records"]
    return dict(max(records, key=lambda record: int(record["dynamodb"]["SequenceNumber"])))
