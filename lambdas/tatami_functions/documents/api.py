"""Routes of the documents service (seed 004): bodies out of the list path, the list from an INCLUDE GSI."""

from __future__ import annotations

from datetime import UTC, datetime
from http import HTTPStatus
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from tatami_functions.common.api import (
    CHANGED_MEANWHILE,
    CREATED_OR_REPLACED,
    NO_CONTENT,
    create_resolver,
    json_response,
)
from tatami_functions.common.paging import DEFAULT_LIMIT, Limit, NextToken
from tatami_functions.documents import service
from tatami_functions.documents.reports import DocumentStatus
from tatami_functions.documents.schemas import DocumentIn, DocumentPatch, ReportId

app = create_resolver("documents")

UserId = Annotated[str, Path(min_length=1, max_length=128)]
Report = Annotated[ReportId, Path()]


@app.put(
    "/users/<user_id>/documents/<report_id>",
    summary="Store a document (large bodies go to S3)",
    responses={**CREATED_OR_REPLACED, 409: {"description": "the report_id cannot be used: choose another"}},
)
def put_document(user_id: UserId, report_id: Report, body: Annotated[DocumentIn, Body()]) -> Response[Any]:
    today = datetime.now(UTC).date()
    document, created = service.put_document(user_id, report_id, body, today)
    return json_response(HTTPStatus.CREATED if created else HTTPStatus.OK, document.to_json())


@app.get("/users/<user_id>/documents", summary="A user's documents, without bodies (GSI)")
def list_documents(
    user_id: UserId,
    status: Annotated[DocumentStatus | None, Query(description="only this status, newest first")] = None,
    limit: Limit = DEFAULT_LIMIT,
    next_: NextToken = None,
) -> dict[str, Any]:
    return service.documents(user_id, status, limit, next_)


@app.get("/users/<user_id>/documents/<report_id>", summary="A document with its body")
def get_document(user_id: UserId, report_id: Report) -> dict[str, Any]:
    return service.get_document(user_id, report_id)


@app.patch(
    "/users/<user_id>/documents/<report_id>",
    summary="Change a document's status or summary",
    responses={200: {"description": "changed"}, **CHANGED_MEANWHILE},
)
def patch_document(
    user_id: UserId, report_id: Report, body: Annotated[DocumentPatch, Body()]
) -> dict[str, Any]:
    return service.patch_document(user_id, report_id, body).to_json()


@app.delete(
    "/users/<user_id>/documents/<report_id>",
    summary="Delete a document and its body",
    responses=NO_CONTENT,
)
def delete_document(user_id: UserId, report_id: Report) -> Response[Any]:
    service.delete_document(user_id, report_id)
    return Response(status_code=HTTPStatus.NO_CONTENT)
