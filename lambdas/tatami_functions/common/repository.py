"""The plumbing every repository shares: a lazy client, one instance per function, SDK errors translated.

A repository module still owns its tables' key names, expressions and queries. What each of them
used to write again lives here. `Repository` (every repository, of one table or several, or of a
bucket): the client, injected or created on first use and reused across warm starts, and
`from_environment`, the function's one instance named by its settings (`common.settings`).
`TableRepository` (one table): `_call`, which turns a `ClientError`/`BotoCoreError` into the
service's own 503 error (or, for the codes a caller names, into its conflict or not-found error)
with `raise ... from exc`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar, cast

from botocore.exceptions import BotoCoreError, ClientError

from tatami_functions.common.clients import ClientConfig
from tatami_functions.common.observability import trace_aws_calls
from tatami_functions.common.settings import TableSettings

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

__all__ = [
    "CONDITION_FAILED",
    "POOLED",
    "TRANSACTION_CANCELED",
    "Repository",
    "TableRepository",
    "forget_instances",
]

CONDITION_FAILED = "ConditionalCheckFailedException"
TRANSACTION_CANCELED = "TransactionCanceledException"
# For functions that run many calls at once (a merge of shard Queries, a batch route's threads):
# a pooled connection for each, and standard retries to absorb throttling.
POOLED = ClientConfig(max_pool_connections=32, retries={"mode": "standard", "max_attempts": 3})

ClientT = TypeVar("ClientT")  # the boto3 client class of the service (DynamoDBClient, S3Client)
_instances: dict[type[Repository[Any]], Repository[Any]] = {}


class Repository[ClientT]:
    """The base of every repository: one client, injected or created on first use and kept (reused
    while the environment is warm), and the function's one instance, named by its environment.

    Class attributes: `service`, the AWS service of the client ("dynamodb", "s3"); `client_config`,
    the `ClientConfig` of the lazily created client (None: botocore's defaults). A subclass says how
    its settings name it in `_from_env`. boto3 is imported with the first client (`common.clients`
    says why).
    """

    service: ClassVar[str] = "dynamodb"
    client_config: ClassVar[ClientConfig | None] = None

    def __init__(self, client: ClientT | None = None) -> None:
        self._client = client

    @property
    def client(self) -> ClientT:
        """The injected client, else one created on first use (and kept: reused while warm)."""
        if self._client is None:
            import boto3  # here, not at init, as common.clients says

            trace_aws_calls()
            config = self.client_config.config if self.client_config else None
            self._client = cast(ClientT, boto3.client(self.service, config=config))
        return self._client

    @classmethod
    def from_environment(cls) -> Self:
        """The function's repository, named by its environment (created once per execution environment).

        >>> CartsTable.from_environment() is CartsTable.from_environment()  # doctest: +SKIP
        True
        """
        instance = _instances.get(cls)
        if not isinstance(instance, cls):
            instance = _instances[cls] = cls._from_env()
        return instance

    @classmethod
    def _from_env(cls) -> Self:
        """A new instance from the function's settings."""
        raise NotImplementedError(f"{cls.__name__} does not say how its settings name it")


class TableRepository(Repository["DynamoDBClient"]):
    """The base of a repository of one table; subclasses add its reads and writes.

    Class attributes: `noun`, the table as error messages name it ("" leaves it out);
    `unavailable`, the service's 503 error; `settings`, the function's declaration (its `table`
    names the table).

    >>> class Lockers(TableRepository):
    ...     noun, unavailable = "lockers", RuntimeError
    >>> Lockers("Tatami-Lockers")._message("put_item", None, "throttled")
    'cannot put item on lockers: throttled'
    """

    noun: ClassVar[str] = ""
    unavailable: ClassVar[type[Exception]]
    settings: ClassVar[type[TableSettings]]

    def __init__(self, table_name: str, client: DynamoDBClient | None = None) -> None:
        super().__init__(client)
        self.table_name = table_name

    @classmethod
    def _from_env(cls) -> Self:
        return cls(cls.settings.from_env().table)

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
        SDK error the service's `unavailable` error, "cannot <action>: <reason>" (by default the
        action is the operation's words on the noun: "put item on lockers")."""
        try:
            return getattr(self.client, operation)(**request)
        except ClientError as exc:
            code = exc.response["Error"]["Code"]
            if errors and code in errors:
                raise errors[code] from exc
            raise self.unavailable(self._message(operation, action, exc)) from exc
        except BotoCoreError as exc:
            raise self.unavailable(self._message(operation, action, exc)) from exc

    def _message(self, operation: str, action: str | None, reason: object) -> str:
        if action is None:
            action = operation.replace("_", " ") + (f" on {self.noun}" if self.noun else "")
        return f"cannot {action}: {reason}"


def forget_instances() -> None:
    """Drop the instances `from_environment` made (tests do, around changing the environment).

    >>> forget_instances()
    """
    _instances.clear()
