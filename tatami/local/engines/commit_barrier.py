"""An acknowledged DynamoDB transaction is on disk, locally as in AWS.

DynamoDB Local answers TransactWriteItems before its SQLite COMMIT has run: its
`SQLiteDBAccess.commitTransaction` queues the COMMIT on the database's one thread and returns
without waiting. A kill of the engine in that window (milliseconds) loses a transaction its caller
was told had succeeded (bench/dynamodb_kill_durability.py: 5 of 924 over 18 kills). So after each
TransactWriteItems that succeeded, a worker sends one ListTables straight to DynamoDB Local; it is
queued on the same thread behind the COMMIT and answers once it ran, and only then does the SDK
hand the function its answer; if the engine dies first, the function gets the connection error of
a lost answer instead of a success. The call goes around the SDK (no IAM check, no recorded
traffic, nothing the function sees); a few milliseconds per transaction.

Standard library only (a worker imports it before its sandbox closes); botocore is imported by
`install`, after the sandbox chose which botocore the handler gets.

For example (not run as a doctest)::

    install_from_environment()
"""

from __future__ import annotations

import http.client
import json
import os
from functools import partial
from typing import Any
from urllib.parse import urlsplit

__all__ = ["attach", "install", "install_from_environment", "wait_for_commits"]

ENDPOINT_ENV = "AWS_ENDPOINT_URL_DYNAMODB"
EVENT = "after-call.dynamodb.TransactWriteItems"
_LIST_ONE_TABLE = {
    "Content-Type": "application/x-amz-json-1.0",
    "X-Amz-Target": "DynamoDB_20120810.ListTables",
    # DynamoDB Local checks the header's form, not its signature.
    "Authorization": (
        "AWS4-HMAC-SHA256 Credential=tatamilocal/20260101/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host, Signature=0"
    ),
}


def wait_for_commits(endpoint: str) -> None:
    """Return once DynamoDB Local at `endpoint` has run every COMMIT queued before this call."""
    parts = urlsplit(endpoint)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=10)
    try:
        connection.request("POST", "/", body=json.dumps({"Limit": 1}), headers=_LIST_ONE_TABLE)
        connection.getresponse().read()
    finally:
        connection.close()


def _after_transaction(endpoint: str, http_response: Any = None, **_: Any) -> None:
    if http_response is None or http_response.status_code != 200:
        return  # refused or failed: nothing was committed, nothing to wait for
    try:
        wait_for_commits(endpoint)
    except OSError as exc:  # the engine died before saying so: the COMMIT may not have run
        from botocore.exceptions import EndpointConnectionError

        # The caller hears what it would of a lost answer (a transaction with a ClientRequestToken
        # sent again is applied once: the token was committed with it, or neither was).
        raise EndpointConnectionError(endpoint_url=endpoint) from exc


def install(endpoint: str) -> None:
    """Every client this process creates from now on waits for its transactions' COMMIT."""
    from botocore import handlers  # here: the worker imports this module before botocore

    handlers.BUILTIN_HANDLERS.append((EVENT, partial(_after_transaction, endpoint)))


def install_from_environment() -> None:
    """In a function's worker: for the DynamoDB endpoint the local cloud gave it."""
    endpoint = os.environ.get(ENDPOINT_ENV)
    if endpoint:
        install(endpoint)


def attach(client: Any, endpoint: str) -> Any:
    """One client waits for its transactions' COMMIT (a CLI's, a bench's); returns the client."""
    client.meta.events.register(EVENT, partial(_after_transaction, endpoint))
    return client
