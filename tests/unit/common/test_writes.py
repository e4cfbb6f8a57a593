"""common/writes.py: the SDK resends a write whose answer was lost only when applying it twice is
harmless, and each request knows whether its writes may have applied.

No network: a `before-send` hook plays DynamoDB, answering or losing each attempt."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError, EndpointConnectionError, ReadTimeoutError
from botocore.retries import standard

from tatami.local.engines.faults import _Body, _error_response
from tatami_functions.common import writes
from tatami_functions.common.dependencies import DependencyError
from tatami_functions.common.errors import ItemNotFoundError
from tatami_functions.common.repository import CONDITION_FAILED, TableRepository

ENDPOINT = "http://127.0.0.1:9"
ADD = {"TableName": "shards", "Key": {"k": {"S": "a"}}, "UpdateExpression": "ADD #c :by"}
ADD |= {"ExpressionAttributeNames": {"#c": "count"}, "ExpressionAttributeValues": {":by": {"N": "1"}}}
SET = {**ADD, "UpdateExpression": "SET #c = :by"}
_ERRORS = {"throttled": "ThrottlingException", "500": "InternalServerError", "condition": CONDITION_FAILED}


class Things(TableRepository):
    noun, unavailable = "things", DependencyError


def _ok(request: Any) -> Any:
    from botocore.awsrequest import AWSResponse

    return AWSResponse(request.url, 200, {"x-amzn-RequestId": "r"}, _Body(json.dumps({}).encode()))


class Service:
    """Plays DynamoDB: `answers[i]` is what attempt i gets ("ok", "lost", "throttled", "500",
    "condition", "unreachable"); `sent` counts the attempts that reached it."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.sent = self.attempts = 0
        self.bodies: list[dict[str, Any]] = []  # what each attempt that reached it asked

    def __call__(self, request: Any, **_: Any) -> Any:
        answer = self.answers[min(self.attempts, len(self.answers) - 1)]
        self.attempts += 1
        if answer == "unreachable":
            raise EndpointConnectionError(endpoint_url=ENDPOINT)  # never sent
        self.sent += 1
        self.bodies.append(json.loads(request.body))
        if answer == "lost":
            raise ReadTimeoutError(endpoint_url=ENDPOINT)
        if answer in _ERRORS:
            return _error_response(request.url, _ERRORS[answer])
        return _ok(request)


@pytest.fixture
def client(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Any]]:
    """A guarded DynamoDB client (3 attempts, no backoff sleeps) whose attempts `Service` answers."""
    monkeypatch.setattr(standard.ExponentialBackoff, "delay_amount", lambda self, context: 0.0)

    def make(service: Service) -> Any:
        config = Config(retries={"mode": "standard", "total_max_attempts": 3})
        made = boto3.client(
            "dynamodb",
            endpoint_url=ENDPOINT,
            region_name="us-east-1",
            config=config,
            aws_access_key_id="a",
            aws_secret_access_key="b",
        )
        writes.guard(made.meta.events, "dynamodb")
        made.meta.events.register("before-send.dynamodb", service)
        return made

    writes.begin_request()
    yield make


def test_an_add_whose_answer_was_lost_is_not_sent_again(client: Callable[..., Any]) -> None:
    service = Service("lost", "ok")
    with pytest.raises(ReadTimeoutError):
        client(service).update_item(**ADD)
    assert service.sent == 1  # the SDK alone would have sent it twice: counted twice for one 200
    assert writes.answer_lost() and writes.may_have_applied()


@pytest.mark.parametrize("lost", ["lost", "500"])
def test_a_write_safe_to_apply_twice_is_sent_again(client: Callable[..., Any], lost: str) -> None:
    service = Service(lost, "ok")
    client(service).update_item(**SET)
    assert service.sent == 2 and writes.answer_lost() and writes.may_have_applied()


def test_a_non_idempotent_write_is_still_retried_when_it_provably_did_not_apply(
    client: Callable[..., Any],
) -> None:
    service = Service("throttled", "unreachable", "ok")
    client(service).update_item(**ADD)
    assert service.sent == 2  # throttled (sent, refused), unreachable (never sent), then applied
    assert not writes.answer_lost() and writes.may_have_applied()


def test_a_lost_5xx_of_an_add_ends_the_call_with_that_error(client: Callable[..., Any]) -> None:
    service = Service("500", "ok")
    with pytest.raises(ClientError, match="InternalServerError"):
        client(service).update_item(**ADD)
    assert service.sent == 1


def test_a_request_whose_writes_were_all_refused_applied_nothing(client: Callable[..., Any]) -> None:
    made = client(Service("throttled"))
    with pytest.raises(ClientError, match="Throttling"):  # a read is no write, whatever it answers
        made.get_item(TableName="shards", Key={"k": {"S": "a"}})
    with pytest.raises(ClientError, match="Throttling"):
        made.update_item(**ADD)
    assert not writes.may_have_applied()
    writes.resending_is_unsafe("it may count twice")
    assert writes.resend_warning() == "it may count twice"
    writes.begin_request()  # the next request starts with a clean account
    assert writes.resend_warning() is None and not writes.may_have_applied()


@pytest.mark.parametrize(
    ("operation", "params", "safe"),
    [
        ("UpdateItem", {"UpdateExpression": "SET #c = #c + :n"}, False),
        ("UpdateItem", {"UpdateExpression": "SET #l = list_append(#l, :x)"}, False),
        ("UpdateItem", {"UpdateExpression": "SET #a = :a REMOVE #b"}, True),
        ("TransactWriteItems", {"TransactItems": []}, False),
        ("PutItem", {"ConditionExpression": "attribute_not_exists(k)"}, True),
        ("SendMessage", {}, False),
    ],
)
def test_which_writes_are_safe_to_resend(operation: str, params: dict[str, Any], safe: bool) -> None:
    assert writes.resend_safe(operation, params) is safe


def test_a_condition_failed_after_a_lost_answer_is_no_false_404(client: Callable[..., Any]) -> None:
    """A conditional delete whose first answer was lost: the resend finds the item gone (its own
    doing, perhaps), so the repository answers 503 "may have applied", not the 404 it maps."""
    gone = ItemNotFoundError("no thing t-1")
    delete = {"TableName": "things", "Key": {"k": {"S": "t-1"}}, "ConditionExpression": "attribute_exists(k)"}
    with pytest.raises(DependencyError, match="lost the answer to an attempt that may have applied"):
        Things("things", client(Service("lost", "condition")))._call(
            "delete_item", errors={CONDITION_FAILED: gone}, **delete
        )
    with pytest.raises(ItemNotFoundError):  # no attempt lost: the condition's failure is the truth
        Things("things", client(Service("condition")))._call(
            "delete_item", errors={CONDITION_FAILED: gone}, **delete
        )


def test_a_transaction_is_resent_with_its_client_request_token(client: Callable[..., Any]) -> None:
    service = Service("lost", "ok")
    Things("things", client(service))._call(
        "transact_write_items", TransactItems=[{"Put": {"TableName": "things", "Item": {"k": {"S": "a"}}}}]
    )
    tokens = {body["ClientRequestToken"] for body in service.bodies}
    assert service.sent == 2 and len(tokens) == 1  # one token: DynamoDB applies the transaction once
