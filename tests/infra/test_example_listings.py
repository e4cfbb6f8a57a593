"""examples/listings: an app of its own that adopts ZOrderIndex and ShardedCounter, synthesized clean."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tatami.doctor import check_lint, check_nag
from tests.support.examples import LISTINGS, synthesize_example

# What the example may import: CDK, cdk-nag, the public constructs, the library and its own declaration.
PUBLIC = {"aws_cdk", "cdk_nag", "constructs", "infra.patterns", "zorder", "zindex", "declaration"}


@pytest.fixture(scope="module")
def listings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synthesize_example(LISTINGS, tmp_path_factory.mktemp("listings") / "cdk.out")


def _template(cdk_out: Path) -> dict[str, Any]:
    return dict(json.loads((cdk_out / "Listings.template.json").read_text()))


def _of_type(template: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [r.get("Properties", {}) for r in template["Resources"].values() if r["Type"] == kind]


def test_the_example_is_cdk_nag_and_cfn_lint_clean(listings: Path) -> None:
    report = json.loads((listings / "validation-report.json").read_text())
    assert [(r["pluginName"], r["conclusion"]) for r in report["pluginReports"]] == [
        ("AwsSolutions", "success")
    ]
    assert check_nag(listings) == []
    assert check_lint(listings) == []


def test_its_table_gets_the_z_index_its_maintainer_and_a_counter(listings: Path) -> None:
    template = _template(listings)
    tables = _of_type(template, "AWS::DynamoDB::GlobalTable")
    indexed = [t for t in tables if t.get("GlobalSecondaryIndexes")]
    assert [[i["IndexName"] for i in t["GlobalSecondaryIndexes"]] for t in indexed] == [["listings-z"]]
    assert indexed[0]["StreamSpecification"] == {"StreamViewType": "NEW_AND_OLD_IMAGES"}
    assert len(tables) == 4  # the listings and the counter's shards, counters and keyed increments
    handlers = sorted(f["Handler"] for f in _of_type(template, "AWS::Lambda::Function"))
    assert handlers == [
        "listings_search.handler.handler",
        "tatami_functions.counters.handler.api",
        "tatami_functions.counters.handler.api",
        "tatami_functions.counters.handler.rollup",
        "zindex.lambda_handler.handler",
    ]
    # No tatami stack around it: no CodeDeploy group waiting on an alarm only tatami's monitoring makes.
    assert _of_type(template, "AWS::CodeDeploy::DeploymentGroup") == []


def test_the_example_imports_only_the_public_constructs_and_the_library() -> None:
    sources = [LISTINGS / "app.py", LISTINGS / "declaration.py", *(LISTINGS / "functions").rglob("*.py")]
    imported = {
        name
        for source in sources
        for node in ast.walk(ast.parse(source.read_text()))
        for name in _imported(node)
    }
    foreign = {
        name
        for name in imported
        if name.split(".")[0] not in sys.stdlib_module_names
        and not any(name == p or name.startswith(f"{p}.") for p in PUBLIC)
        and not name.startswith("listings_search")
    }
    assert foreign == set()


def _imported(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module]
    return []
