"""The invoices and employees tables on DynamoDB Local (the `labs` fixture of tests/integration/conftest.py),
created from the CloudFormation their constructs synthesize (tests.support.service_tables), with the
sample loaded as the services write it and every call of the client recorded; and how a test serves a
service module with a repository on them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any
from urllib.parse import quote

import pytest
import requests

from tests.support.models_workshop import Recorder


@dataclass
class Labs:
    """The invoices and employees tables with the sample loaded, and a recorder on the client."""

    client: Any
    invoices: str
    employees: str
    recorder: Recorder


@contextmanager
def serving(service: ModuleType, repository: Any) -> Iterator[ModuleType]:
    """`service` (a service module) with `repository` as its function's one repository."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(service, "repository", lambda: repository)
        yield service


def served(
    service: ModuleType, make: Callable[[str, Any], Any], table: str, labs: Labs
) -> Iterator[ModuleType]:
    labs.recorder.clear()
    with serving(service, make(table, labs.client)) as bound:
        yield bound


# Over HTTP: the invoices and employees routes answer with the reads they made (`stats`).
def call(api: str, method: str, path: str, body: Any = None, **query: Any) -> requests.Response:
    return requests.request(method, api + quote(path), json=body, params=query, timeout=30)


def get(api: str, path: str, **query: Any) -> dict[str, Any]:
    response = call(api, "GET", path, **query)
    assert response.status_code == 200, response.text
    return dict(response.json())


def one_read(body: dict[str, Any], items: int) -> None:
    assert body["stats"]["queries"] == 1 and body["stats"]["items_read"] == items, body["stats"]
