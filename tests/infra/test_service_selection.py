"""`-c services=...` deploys only the services named: their resources, the API, docs and monitoring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tatami.local.gateway.routes import read_routes
from tatami_functions.docs.api import DOCUMENT_IN_ASSET
from tests.support.synthesis import Synthesized, synthesize

COUNTERS_TABLES = {"Counters02DC7750", "CountersShardsD0F18240", "CountersIdempotency26171832"}


@pytest.fixture(scope="module")
def counters_only(tmp_path_factory: pytest.TempPathFactory) -> Synthesized:
    return synthesize(tmp_path_factory.mktemp("counters-only") / "cdk.out", {"services": "counters"})


def test_one_service_selected_yields_its_tables_under_their_deployed_ids(counters_only: Synthesized) -> None:
    assert set(counters_only.resources("AWS::DynamoDB::GlobalTable")) == COUNTERS_TABLES
    assert set(counters_only.resources("AWS::SQS::Queue")) == {"CountersRollupFailures9C6336CD"}
    assert counters_only.resources("AWS::S3::Bucket") == {}  # no workshop or analytics bucket


def test_its_functions_and_routes_and_the_docs_only(counters_only: Synthesized) -> None:
    stack = counters_only.stack()
    functions = {
        stack.construct_paths[k].split("/")[1] for k in counters_only.resources("AWS::Lambda::Function")
    }
    assert functions == {"Counters", "Docs"}
    routes = sorted((route.method, route.resource_path) for route in read_routes(stack))
    assert routes == [
        ("GET", "/counters/{name}"),
        ("GET", "/openapi.json"),
        ("POST", "/counters/{name}/increments"),
        ("PUT", "/counters/{name}"),
    ]


def test_the_docs_function_documents_the_selected_services_only(counters_only: Synthesized) -> None:
    (docs,) = [
        spec
        for spec in _functions(counters_only)
        if spec["Handler"] == "tatami_functions.docs.handler.handler"
    ]
    asset = counters_only.stack().asset_dirs[docs["Code"]["S3Key"].removesuffix(".zip")]
    # The document generated at synthesis into the docs function's asset: the selected routes only.
    document = json.loads((Path(asset) / DOCUMENT_IN_ASSET).read_text())
    assert sorted(document["paths"]) == ["/counters/{name}", "/counters/{name}/increments"]
    tags = {tag for item in document["paths"].values() for op in item.values() for tag in op.get("tags", [])}
    assert tags == {"counters"}


def test_monitoring_watches_the_selected_service_and_the_api_only(counters_only: Synthesized) -> None:
    kinds = [resource["Type"] for resource in counters_only.monitoring["Resources"].values()]
    assert "AWS::CloudWatch::Alarm" in kinds, "the selection is monitored"
    text = json.dumps(counters_only.monitoring)
    for absent in ("Places", "ForumModel", "IpLookup", "Olap", "Workshop"):
        assert absent not in text, f"monitoring of an unselected service: {absent}"
    assert "RollupFunction" in text and "Api" in text


def test_an_unknown_service_is_refused_naming_the_choices(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"no service named plaices; choose among .*places"):
        synthesize(tmp_path / "cdk.out", {"services": "counters,plaices"})


def _functions(synthesized: Synthesized) -> list[dict[str, object]]:
    return [resource["Properties"] for resource in synthesized.resources("AWS::Lambda::Function").values()]
