"""The app's own local cloud serves one OpenAPI document that lists exactly the API's routes."""

import requests

from tatami.local.cloud import LocalCloud
from tatami.local.gateway.routes import read_routes

HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}


def test_openapi_document_lists_every_route_of_the_template(app_cloud: LocalCloud) -> None:
    response = requests.get(f"{app_cloud.api_url}/openapi.json", timeout=60)
    assert response.status_code == 200
    document = response.json()
    assert document["openapi"].startswith("3.")
    assert document["info"]["title"] == "tatami"
    documented = {
        (method.upper(), path)
        for path, operations in document.get("paths", {}).items()
        for method in operations
        if method in HTTP_METHODS
    }
    served = {
        (route.method, route.resource_path)
        for stack in app_cloud.assembly.stacks
        for route in read_routes(stack)
        if route.resource_path != "/openapi.json"
    }
    assert served, "the template has routes"
    assert served == documented
