"""The OpenAPI document the docs function serves, over real HTTP on the app's local cloud, lists the
services' routes."""

from __future__ import annotations

from typing import Any

import requests

from tatami.local.cloud import LocalCloud


def paths_of(app_cloud: LocalCloud) -> dict[str, Any]:
    response = requests.get(f"{app_cloud.api_url}/openapi.json", timeout=60)
    assert response.status_code == 200, response.text
    return dict(response.json()["paths"])


def test_the_openapi_document_lists_the_invoices_and_employees_routes(app_cloud: LocalCloud) -> None:
    paths = paths_of(app_cloud)
    listed = (
        "/invoices/{id}",
        "/customers/{id}/invoices",
        "/bills/{id}",
        "/employees",
        "/employees/managers",
    )
    assert set(listed) <= set(paths)
    assert set(paths["/employees/{id}"]) == {"get", "put", "delete"}


def test_the_openapi_document_lists_the_models_routes(app_cloud: LocalCloud) -> None:
    paths = paths_of(app_cloud)
    for path in ("/devices/{device_id}/logs", "/escalations", "/logs/recent", "/users/{user_id}/cart",
                 "/users/{user_id}/documents/{report_id}", "/lockers", "/campaigns/candidates"):  # fmt: skip
        assert path in paths, path
    assert set(paths["/users/{user_id}/documents/{report_id}"]) == {"get", "put", "patch", "delete"}
