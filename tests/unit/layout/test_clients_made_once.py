"""The functions make AWS clients in two places only: `common.clients.aws_client` (module-level clients,
one per service and configuration) and `common.repository.Repository` (a repository's injectable,
lazily created client). Any other `boto3.client(...)` in the function code is a third way."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FUNCTIONS = ROOT / "lambdas" / "tatami_functions"
MAKERS = {FUNCTIONS / "common" / "clients.py", FUNCTIONS / "common" / "repository.py"}


def client_calls(path: Path) -> list[int]:
    """Lines of `boto3.client(...)` / `boto3.resource(...)` calls in `path`."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("client", "resource")
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "boto3"
    ]


def test_only_the_two_makers_create_clients() -> None:
    elsewhere = {
        str(path.relative_to(ROOT)): lines
        for path in sorted(FUNCTIONS.rglob("*.py"))
        if path not in MAKERS and (lines := client_calls(path))
    }
    assert elsewhere == {}, "use common.clients.aws_client or derive from common.repository.Repository"


def test_the_makers_are_found() -> None:
    """The walk above would pass vacuously if it no longer recognised a call."""
    assert all(client_calls(path) for path in MAKERS)
