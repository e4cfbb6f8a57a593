"""The app's own local cloud: the merged OpenAPI document is served."""

import requests

from tatami.local.cloud import LocalCloud


def test_openapi_document_lists_the_routes(app_cloud: LocalCloud) -> None:
    response = requests.get(f"{app_cloud.api_url}/openapi.json", timeout=30)
    assert response.status_code == 200
    document = response.json()
    assert document["openapi"].startswith("3.")
    assert document["info"]["title"] == "tatami"
