"""Every service package has the shape `tatami_functions/__init__.py` describes, and `infra/services`
mirrors the services one to one."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
FUNCTIONS = ROOT / "lambdas" / "tatami_functions"
SERVICES = sorted(p.name for p in FUNCTIONS.iterdir() if (p / "__init__.py").exists() and p.name != "common")
INFRA_SERVICES = ROOT / "infra" / "services"

ALWAYS = ("__init__.py", "handler.py", "service.py", "repository.py", "exceptions.py", "settings.py")
BEHIND_THE_API = ("api.py", "schemas.py")
# What a service may lack, and why.
WITHOUT = {
    "docs": {
        "service.py": "it serves the document generated at synthesis from the services' resolvers",
        "repository.py": "it calls no AWS service",
        "table.py": "it has no table",
        "exceptions.py": "it raises nothing of its own",
        "settings.py": "it reads no variable of its own",
        "schemas.py": "it answers the OpenAPI document as it is",
    },
    "olap": {"table.py": "it exports the other services' tables and owns none"},
}
# Names the services used for the roles above before they had one shape.
ROLE_ALIASES = frozenset(
    {
        "models.py",
        "queries.py",
        "lookup.py",
        "logs.py",
        "configs.py",
        "increments.py",
        "reads.py",
        "run.py",
        "items.py",
        "clients.py",
        "scan.py",
        "plan.py",
        "traffic.py",
        "bodies.py",
        "search.py",
        "apply.py",
    }
)
# Only a repository reaches AWS: these modules are how.
AWS = (
    "boto3",
    "botocore",
    "tatami_functions.common.clients",
    "tatami_functions.common.batch",
    "tatami_functions.common.repository",
    "tatami_functions.common.index_search",
    "zindex.dynamodb",
    "zindex.search",
)


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return found


def shaped(service: str) -> Path:
    return FUNCTIONS / service


@pytest.mark.parametrize("service", SERVICES)
def test_each_service_has_every_role_file(service: str) -> None:
    folder = shaped(service)
    behind_the_api = (folder / "api.py").exists()
    expected = {*ALWAYS, "table.py", *(BEHIND_THE_API if behind_the_api else ())} - set(
        WITHOUT.get(service, {})
    )
    present = {p.name for p in folder.glob("*.py")}
    assert sorted(expected - present) == []
    assert sorted(present & ROLE_ALIASES) == [], "name the module for its role, or for a domain idea"
    assert ast.get_docstring(ast.parse((folder / "__init__.py").read_text())), "say what the service serves"


@pytest.mark.parametrize("service", SERVICES)
def test_only_the_repository_talks_to_aws(service: str) -> None:
    folder = shaped(service)
    for path in sorted(folder.glob("*.py")):
        if path.name == "repository.py":
            continue
        reached = sorted(name for name in imports(path) if name.startswith(AWS))
        assert reached == [], f"{path.relative_to(ROOT)} reaches AWS: {reached}"
        assert "._call(" not in path.read_text(), f"{path.relative_to(ROOT)} calls an SDK operation"


@pytest.mark.parametrize("service", SERVICES)
def test_routes_go_through_the_logic(service: str) -> None:
    api = shaped(service) / "api.py"
    if not api.exists():
        pytest.skip(f"{service} has no routes")
    package = f"tatami_functions.{service}"
    reached = sorted(i for i in imports(api) if i.startswith((f"{package}.repository", f"{package}.table")))
    assert reached == [], f"the routes reach past the logic: {reached}"


@pytest.mark.parametrize("service", SERVICES)
def test_the_repository_is_named_for_its_role(service: str) -> None:
    path = shaped(service) / "repository.py"
    if not path.exists():
        pytest.skip(f"{service} has no repository ({WITHOUT[service]['repository.py']})")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    classes = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
    functions = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert any(name.endswith("Repository") for name in classes), classes
    assert "repository" in functions, "the function's one instance: repository()"


def test_infra_mirrors_the_services() -> None:
    built = (
        {p.stem for p in INFRA_SERVICES.glob("*.py") if p.stem != "__init__"}
        if INFRA_SERVICES.exists()
        else set()
    )
    assert sorted(set(SERVICES) - built) == [], "a service without its construct module"
    assert sorted(built - set(SERVICES)) == [], "a construct module without its service"
