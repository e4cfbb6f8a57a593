"""Documents on DynamoDB Local: the seed's numbers, 1,600 RCU for the first design and 1 RCU for the GSI."""

from __future__ import annotations

import uuid
from datetime import date, timedelta
from typing import Any

import pytest

from tatami_functions.documents.exceptions import DocumentNotFoundError, ReportIdTakenError
from tatami_functions.documents.reports import DocumentStatus, query_read_units, status_with_created_on
from tatami_functions.documents.repository import DocumentsRepository
from tatami_functions.documents.table import BY_USER
from tests.support import models_workshop
from tests.support.models_workshop import Workshop

workshop = models_workshop.workshop  # the session fixture: model tables on DynamoDB Local, seed loaded
KB = 1024
SEED_ITEMS, SEED_ITEM_KB = 50, 256  # "1アイテムの平均サイズは256KB ... 最大50件"


@pytest.fixture(scope="module")
def fifty_reports(workshop: Workshop) -> tuple[DocumentsRepository, str]:
    """The seed's user: 50 documents of 256 KB each (bodies in S3, so the items stay small)."""
    documents = DocumentsRepository(workshop.table("DocumentsTableName"), client=workshop.client)
    for n in range(SEED_ITEMS):
        documents.put(
            {
                "report_id": f"seed-{n:02d}",
                "user_id": "SEED-USER",
                "status_with_created_on": status_with_created_on(
                    DocumentStatus.COMPLETED, date(2021, 7, 1) + timedelta(n)
                ),
                "summary": f"レポート {n}",
                "size": SEED_ITEM_KB * KB,
                "document_s3_key": f"documents/seed-{n:02d}/{uuid.uuid4().hex}",
            }
        )
    return documents, "SEED-USER"


def test_listing_50_documents_from_the_gsi_costs_1_rcu(
    fifty_reports: tuple[DocumentsRepository, str], workshop: Workshop
) -> None:
    documents, user = fifty_reports
    workshop.recorder.clear()
    listed = documents.list(user, DocumentStatus.COMPLETED, SEED_ITEMS, None).items
    assert len(listed) == 50 and listed[0]["created_on"] == "2021-08-19"  # newest first
    assert set(listed[0]) == {"report_id", "status", "created_on", "summary"}  # never a body
    (call,) = workshop.recorder.calls
    assert (call.operation, call.index) == ("Query", BY_USER.name) and call.scanned == 50
    assert call.consumed == 1.0  # the seed's "たったの1RCU"


def test_the_seeds_first_design_costs_1600_rcu_for_the_same_list(workshop: Workshop) -> None:
    """user_id + status_with_created_on keys, body inside: a Query reads every body (seed: 1,600 RCU)."""
    client, name = workshop.client, f"{workshop.table('DocumentsTableName')}-seed-design"
    client.create_table(
        TableName=name,
        KeySchema=[
            {"AttributeName": "user_id", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ],
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("user_id", "sk")],
        BillingMode="PAY_PER_REQUEST",
    )
    body = "x" * (SEED_ITEM_KB * KB - 40)  # 256 KB items, keys and names included
    for n in range(SEED_ITEMS):
        client.put_item(
            TableName=name, Item={"user_id": {"S": "U"}, "sk": {"S": f"COMPLETED#{n:02d}"}, "d": {"S": body}}
        )
    consumed = 0.0
    request: dict[str, Any] = {"TableName": name, "KeyConditionExpression": "user_id = :u"}
    request |= {"ExpressionAttributeValues": {":u": {"S": "U"}}, "ReturnConsumedCapacity": "TOTAL"}
    while True:  # a Query page stops at 1 MB, so the 50 items take several pages
        response = client.query(**request)
        consumed += response["ConsumedCapacity"]["CapacityUnits"]
        if "LastEvaluatedKey" not in response:
            break
        request["ExclusiveStartKey"] = response["LastEvaluatedKey"]
    assert query_read_units(SEED_ITEMS * SEED_ITEM_KB * KB) == 1600.0
    assert 1600.0 <= consumed <= 1604.0  # the seed's figure, give or take the rounding of each 1 MB page


def test_a_document_is_one_getitem_and_invisible_to_other_users(
    fifty_reports: tuple[DocumentsRepository, str], workshop: Workshop
) -> None:
    documents, user = fifty_reports
    workshop.recorder.clear()
    assert documents.get(user, "seed-07")["document_s3_key"].startswith("documents/seed-07/")
    assert workshop.recorder.operations() == [("GetItem", None)]
    with pytest.raises(DocumentNotFoundError):
        documents.get("SOMEONE-ELSE", "seed-07")
    with pytest.raises(ReportIdTakenError):  # nobody overwrites another user's report_id
        documents.put(
            {
                "report_id": "seed-07",
                "user_id": "SOMEONE-ELSE",
                "status_with_created_on": "x",
                "summary": "s",
                "size": 1,
            }
        )
    with pytest.raises(DocumentNotFoundError):
        documents.delete("SOMEONE-ELSE", "seed-07")
