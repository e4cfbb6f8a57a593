"""tatami_functions.common.repository: SDK errors translated, the client created lazily, one instance
per class."""

from __future__ import annotations

import doctest
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import pytest
from botocore.exceptions import ClientError, EndpointConnectionError
from botocore.hooks import HierarchicalEmitter
from botocore.model import ServiceId

from tatami_functions.common import repository
from tatami_functions.common.clients import API_CALLS, ClientConfig
from tatami_functions.common.repository import CONDITION_FAILED, TableRepository, forget_instances
from tatami_functions.common.settings import SettingsError, TableSettings, variable


class Unavailable(Exception):
    pass


class Conflict(Exception):
    pass


class ThingsSettings(TableSettings):
    table: str = variable("THINGS_TABLE")


class ShardedSettings(TableSettings):
    table: str = variable("SHARDED_TABLE")
    shards: int = variable("SHARDS", int, default=1)


class Things(TableRepository):
    noun, unavailable, settings = "things", Unavailable, ThingsSettings


class Silent(TableRepository):
    unavailable = Unavailable  # no noun: "cannot query: ..."


class Sharded(TableRepository):
    noun, unavailable, settings = "shards", Unavailable, ShardedSettings
    client_config = ClientConfig(max_pool_connections=7)

    def __init__(self, table_name: str, shards: int = 1, client: Any = None) -> None:
        super().__init__(table_name, client)
        self.shards = shards

    @classmethod
    def _from_env(cls) -> Sharded:
        settings = ShardedSettings.from_env()
        return cls(settings.table, settings.shards)


class RecordingEvents(HierarchicalEmitter):  # type: ignore[misc]  # botocore ships no types
    """A client's event emitter that remembers which events were registered."""

    def __init__(self) -> None:
        super().__init__()
        self.registered: list[str] = []

    def register(self, event_name: str, handler: Any, *args: Any, **kwargs: Any) -> None:
        self.registered.append(event_name)
        super().register(event_name, handler, *args, **kwargs)


class FakeClient:
    """Answers every operation with `answer`, or raises it when it is an exception; `meta` as a
    boto3 client's (its configuration, its events)."""

    def __init__(self, answer: Any) -> None:
        self.answer, self.calls = answer, []
        # What common.clients.new_client guards (the client's events, named by its service) and
        # within_deadline reads (its config).
        self.meta = SimpleNamespace(
            config=API_CALLS.config,
            events=RecordingEvents(),
            service_model=SimpleNamespace(service_id=ServiceId("DynamoDB")),
        )

    def __getattr__(self, operation: str) -> Any:
        def call(**request: Any) -> Any:
            self.calls.append((operation, request))
            if isinstance(self.answer, Exception):
                raise self.answer
            return self.answer

        return call


def client_error(code: str, operation: str = "PutItem") -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": "no"}}, operation)


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    forget_instances()
    yield
    forget_instances()


def test_a_call_passes_the_request_through_and_returns_the_answer() -> None:
    client = FakeClient({"Item": {"pk": {"S": "a"}}})
    answer = Things("T", client=client)._call("get_item", TableName="T", Key={"pk": {"S": "a"}})
    assert answer == {"Item": {"pk": {"S": "a"}}}
    assert client.calls == [("get_item", {"TableName": "T", "Key": {"pk": {"S": "a"}}})]


def test_a_client_error_is_the_services_unavailable_error_naming_operation_and_noun() -> None:
    error = client_error("ProvisionedThroughputExceededException")
    throttled = r"^cannot put item on things: DynamoDB is throttling requests; retry after 1 s$"
    with pytest.raises(Unavailable, match=throttled) as raised:
        Things("T", client=FakeClient(error))._call("put_item", TableName="T")
    assert raised.value.__cause__ is error


def test_a_botocore_error_is_unavailable_too_and_its_endpoint_is_not_repeated() -> None:
    error = EndpointConnectionError(endpoint_url="http://10.0.0.7:8000/")
    with pytest.raises(Unavailable) as raised:
        Things("T", client=FakeClient(error))._call("transact_write_items", TransactItems=[])
    assert str(raised.value) == (
        "cannot transact write items on things: DynamoDB cannot be reached; retry after 5 s"
    )


def test_without_a_noun_the_message_names_the_operation_alone() -> None:
    refused = r"^cannot query: DynamoDB refused the request \(ResourceNotFoundException\)"
    with pytest.raises(Unavailable, match=refused):
        Silent("T", client=FakeClient(client_error("ResourceNotFoundException")))._call("query")


def test_an_action_replaces_the_operation_words() -> None:
    with pytest.raises(Unavailable, match=r"^cannot read the dataset alias: "):
        Things("T", client=FakeClient(client_error("AccessDeniedException")))._call(
            "get_item", action="read the dataset alias"
        )


def test_a_named_error_code_raises_its_own_exception() -> None:
    error, conflict = client_error(CONDITION_FAILED), Conflict("changed meanwhile")
    with pytest.raises(Conflict) as raised:
        Things("T", client=FakeClient(error))._call("put_item", errors={CONDITION_FAILED: conflict})
    assert raised.value is conflict and raised.value.__cause__ is error


def test_other_codes_stay_unavailable_when_one_is_named() -> None:
    with pytest.raises(Unavailable):
        Things("T", client=FakeClient(client_error("ThrottlingException")))._call(
            "put_item", errors={CONDITION_FAILED: Conflict()}
        )


def test_the_client_is_created_on_first_use_with_the_config_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[tuple[str, Any]] = []

    def fake_client(service: str, config: Any = None) -> FakeClient:
        made.append((service, config))
        return FakeClient({})

    monkeypatch.setattr("boto3.client", fake_client)
    things, sharded = Things("T"), Sharded("S")
    assert made == []  # nothing at construction: a cold start pays only for what it uses
    assert things.client is things.client
    assert sharded.client is not things.client
    assert made == [("dynamodb", API_CALLS.config), ("dynamodb", Sharded.client_config.config)]
    # Each gives up before an attempt that could outlast the invocation (common.clients.within_deadline).
    for client in (things.client, sharded.client):
        assert "before-send" in client.meta.events.registered


def test_threads_asking_for_the_first_client_at_once_make_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fan-out (a merge of Queries, a batch's writers) on a first request: one client, not one each."""
    made: list[str] = []

    def slow_client(service: str, config: Any = None) -> FakeClient:
        made.append(service)
        time.sleep(0.05)  # what creating a client takes: every thread arrives while it is made
        return FakeClient({})

    monkeypatch.setattr("boto3.client", slow_client)
    things = Things("T")
    with ThreadPoolExecutor(max_workers=8) as pool:
        clients = list(pool.map(lambda _n: things.client, range(8)))
    assert made == ["dynamodb"]
    assert all(client is clients[0] for client in clients)


def test_an_injected_client_is_used_as_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("boto3.client", lambda *a, **k: pytest.fail("created a client"))
    client = FakeClient({})
    assert Things("T", client=client).client is client


def test_from_environment_builds_one_instance_per_class(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("THINGS_TABLE", "Tatami-Things")
    monkeypatch.setenv("SHARDED_TABLE", "Tatami-Sharded")
    monkeypatch.setenv("SHARDS", "10")
    things, sharded = Things.from_environment(), Sharded.from_environment()
    assert things is Things.from_environment() and sharded is Sharded.from_environment()
    assert type(things) is Things and things.table_name == "Tatami-Things"
    assert type(sharded) is Sharded and (sharded.table_name, sharded.shards) == ("Tatami-Sharded", 10)
    monkeypatch.setenv("THINGS_TABLE", "Tatami-Other")
    assert Things.from_environment() is things  # read once per execution environment
    forget_instances()
    assert Things.from_environment().table_name == "Tatami-Other"


def test_from_environment_names_the_missing_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("THINGS_TABLE", raising=False)
    with pytest.raises(SettingsError, match=r"^THINGS_TABLE is not set"):
        Things.from_environment()


def test_examples() -> None:
    assert doctest.testmod(repository, optionflags=doctest.ELLIPSIS).failed == 0
