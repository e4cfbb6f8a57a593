"""The plumbing every repository shares: a lazy client, one instance per function, SDK errors translated.

A repository module still owns its tables' key names, expressions and queries. What each of them
used to write again lives here. `Repository` (every repository, of one table or several, or of a
bucket): the client, injected or created on first use and reused across warm starts, and
`from_environment`, the function's one instance named by its settings (`common.settings`), and
`_call`, which turns a `ClientError`/`BotoCoreError` into the service's own 503 error (a
`common.dependencies.DependencyError`: a message naming what failed, never an endpoint) or, for the
codes a caller names, into its conflict or not-found error, with `raise ... from exc`. Clients get
`common.clients.API_CALLS`'s time budget unless a repository names another.
`TableRepository` (one table) adds the table's name from the settings.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar, cast

from botocore.exceptions import BotoCoreError, ClientError

from tatami_functions.common import writes
from tatami_functions.common.clients import API_CALLS, ClientConfig, new_client
from tatami_functions.common.dependencies import failure, lost_answer
from tatami_functions.common.errors import TatamiError
from tatami_functions.common.settings import TableSettings

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

__all__ = [
    "CONDITION_FAILED",
    "TRANSACTION_CANCELED",
    "Repository",
    "TableRepository",
    "forget_instances",
    "range_condition",
]

CONDITION_FAILED = "ConditionalCheckFailedException"
TRANSACTION_CANCELED = "TransactionCanceledException"

ClientT = TypeVar("ClientT")  # the boto3 client class of the service (DynamoDBClient, S3Client)
_instances: dict[type[Repository[Any]], Repository[Any]] = {}
# A fan-out's threads may ask for the client at once on a first request: one of them makes it (each
# client costs tens of ms of CPU, and threads making one each made the devices' first request 2x).
_making_client = threading.Lock()


class Repository[ClientT]:
    """The base of every repository: one client, injected or created on first use and kept (reused
    while the environment is warm), the function's one instance, named by its environment, and
    `_call`, the SDK call whose errors become the service's.

    Class attributes: `service`, the AWS service of the client ("dynamodb", "s3"); `client_config`,
    the `ClientConfig` of the lazily created client; `noun`, what error messages name ("" leaves
    it out); `unavailable`, the service's 503 error. A subclass says how its settings name it in
    `_from_env`. boto3 is imported with the first client (`common.clients` says why).

    >>> class Lockers(Repository):
    ...     noun, unavailable = "lockers", RuntimeError
    >>> throttled = ClientError({"Error": {"Code": "ThrottlingException"}}, "PutItem")
    >>> Lockers()._failure("put_item", None, throttled)
    RuntimeError('cannot put item on lockers: DynamoDB is throttling requests; retry after 1 s')
    """

    service: ClassVar[str] = "dynamodb"
    client_config: ClassVar[ClientConfig | None] = API_CALLS
    noun: ClassVar[str] = ""
    unavailable: ClassVar[type[Exception]]

    def __init__(self, client: ClientT | None = None) -> None:
        self._client = client

    @property
    def client(self) -> ClientT:
        """The injected client, else one created on first use (and kept: reused while warm)."""
        if self._client is None:
            with _making_client:
                if self._client is None:
                    self._client = cast(ClientT, new_client(self.service, self.client_config))
        return self._client

    @classmethod
    def from_environment(cls) -> Self:
        """The function's repository, named by its environment (created once per execution environment).

        For example (not run as a doctest)::

            CartsRepository.from_environment() is CartsRepository.from_environment()
            # -> True
        """
        instance = _instances.get(cls)
        if not isinstance(instance, cls):
            instance = _instances[cls] = cls._from_env()
        return instance

    @classmethod
    def _from_env(cls) -> Self:
        """A new instance from the function's settings."""
        raise NotImplementedError(f"{cls.__name__} does not say how its settings name it")

    def _call(
        self,
        operation: str,
        /,
        *,
        errors: Mapping[str, Exception] | None = None,
        action: str | None = None,
        **request: Any,
    ) -> Any:
        """`client.<operation>(**request)`; an error code in `errors` raises its exception, any other
        SDK error the service's `unavailable` error, "cannot <action>: <what failed>; retry after N
        s" (by default the action is the operation's words on the noun: "put item on lockers").

        A transaction carries a `ClientRequestToken`, so the SDK's resend of it applies once. A
        404/409 from `errors` that met a condition after an attempt whose answer was lost may be
        that attempt's own success: it leaves as the `unavailable` error saying it may have applied.
        """
        if operation == "transact_write_items":
            request.setdefault("ClientRequestToken", str(uuid.uuid4()))
        writes.begin_call()
        with self._translated(operation, action):
            try:
                return getattr(self.client, operation)(**request)
            except ClientError as exc:
                code = exc.response["Error"]["Code"]
                if errors and code in errors:
                    if isinstance(errors[code], TatamiError) and writes.answer_lost():
                        what = f"cannot {self._action(operation, action)}"
                        raise lost_answer(self.unavailable, what, self.service) from exc
                    raise errors[code] from exc
                raise

    @contextmanager
    def _translated(self, operation: str, action: str | None = None) -> Iterator[None]:
        """SDK errors raised inside leave as the service's `unavailable` error: `_call`'s, and those of
        a library calling AWS with its own client (the Z-index engine)."""
        try:
            yield
        except (ClientError, BotoCoreError) as exc:
            raise self._failure(operation, action, exc) from exc

    def _failure(self, operation: str, action: str | None, exc: BaseException) -> Exception:
        """The service's `unavailable` error for the SDK error `exc` (raise it `from exc`)."""
        return failure(self.unavailable, f"cannot {self._action(operation, action)}", exc, self.service)

    def _action(self, operation: str, action: str | None) -> str:
        """What error messages say was tried: `action`, else the operation's words on the noun."""
        return action or operation.replace("_", " ") + (f" on {self.noun}" if self.noun else "")


class TableRepository(Repository["DynamoDBClient"]):
    """The base of a repository of one table; subclasses add its reads and writes.

    Class attributes: `noun` and `unavailable` (`Repository`); `settings`, the function's
    declaration (its `table` names the table).
    """

    settings: ClassVar[type[TableSettings]]

    def __init__(self, table_name: str, client: DynamoDBClient | None = None) -> None:
        super().__init__(client)
        self.table_name = table_name

    @classmethod
    def _from_env(cls) -> Self:
        return cls(cls.settings.from_env().table)


def forget_instances() -> None:
    """Drop the instances `from_environment` made (tests do, around changing the environment).

    >>> forget_instances()
    """
    _instances.clear()


def range_condition(attribute: str, low: str | None, high: str | None) -> tuple[str, dict[str, Any]]:
    """A sort-key condition for `low <= attribute <= high` (either bound may be open); '' if both are.

    >>> range_condition("#sk", "a", None)
    ('#sk >= :low', {':low': {'S': 'a'}})
    """
    if low is not None and high is not None:
        return f"{attribute} BETWEEN :low AND :high", {":low": {"S": low}, ":high": {"S": high}}
    if low is not None:
        return f"{attribute} >= :low", {":low": {"S": low}}
    if high is not None:
        return f"{attribute} <= :high", {":high": {"S": high}}
    return "", {}
