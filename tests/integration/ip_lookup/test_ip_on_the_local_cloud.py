"""The IP lookup service on tatami's own local cloud: the sample loads, the routes answer over HTTP."""

from __future__ import annotations

import pytest
import requests

from tatami.local.cloud import LocalCloud
from tatami.samples import ip_lookup
from tatami.samples.catalog import SAMPLES


@pytest.fixture(scope="module")
def api(app_cloud: LocalCloud) -> str:
    progress: list[tuple[int, int]] = []
    summary = ip_lookup.load(app_cloud, lambda done, total: progress.append((done, total)))
    assert summary.startswith("v") and "3,644 rows -> 3,967 items" in summary
    assert progress[-1] == (3_967, 3_967)
    return app_cloud.api_url


def test_the_sample_is_registered_with_examples_that_answer(api: str) -> None:
    sample = SAMPLES["ip_lookup"]
    statuses = [requests.get(f"{api}{example}", timeout=30).status_code for example in sample.examples]
    assert statuses == [200, 200, 200, 404]


def test_get_an_address_of_each_family(api: str) -> None:
    google = requests.get(f"{api}/ip/8.8.8.8", timeout=30)
    assert google.status_code == 200 and int(google.headers["X-Ip-Dataset-Version"]) >= 1
    assert google.json() == {
        "address": "8.8.8.8",
        "start": "8.8.8.0",
        "end": "8.8.8.255",
        "data": {"asn": "15169", "organization": "Google LLC"},
    }
    cloudflare = requests.get(f"{api}/ip/2606:4700:4700::1111", timeout=30).json()
    assert cloudflare["data"]["organization"] == "Cloudflare, Inc."


def test_no_data_and_bad_input(api: str) -> None:
    gap = requests.get(f"{api}/ip/1.0.2.0", timeout=30)
    assert gap.status_code == 404 and gap.json()["message"].startswith("no data for 1.0.2.0")
    bad = requests.get(f"{api}/ip/not-an-ip", timeout=30)
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "address"


def test_a_batch_over_http(api: str) -> None:
    body = {"addresses": ["1.1.1.1", "133.11.0.1", "bogus", "9.9.9.9"]}
    reply = requests.post(f"{api}/ip/lookups", json=body, timeout=30)
    assert reply.status_code == 200
    assert [r["status"] for r in reply.json()["results"]] == [200, 200, 400, 404]
    too_many = requests.post(f"{api}/ip/lookups", json={"addresses": ["1.1.1.1"] * 101}, timeout=30)
    assert too_many.status_code == 400 and "addresses" in too_many.json()["message"]


def test_the_openapi_document_lists_both_routes(api: str) -> None:
    paths = requests.get(f"{api}/openapi.json", timeout=30).json()["paths"]
    assert "get" in paths["/ip/{address}"] and "post" in paths["/ip/lookups"]
