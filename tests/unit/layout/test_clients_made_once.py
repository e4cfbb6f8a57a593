"""The functions make AWS clients in one place: `common.clients.new_client`, which guards each client's
retries of writes (`common.writes`). `common.clients.aws_client` (module-level clients, one per service
and configuration) and `common.repository.Repository` (a repository's injectable, lazily created
client) both call it. Any other `boto3.client(...)` in the function code is a client unguarded."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FUNCTIONS = ROOT / "lambdas" / "tatami_functions"
MAKERS = {FUNCTIONS / "common" / "clients.py"}


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


def test_only_the_maker_creates_clients() -> None:
    elsewhere = {
        str(path.relative_to(ROOT)): lines
        for path in sorted(FUNCTIONS.rglob("*.py"))
        if path not in MAKERS and (lines := client_calls(path))
    }
    assert elsewhere == {}, "use common.clients.aws_client or derive from common.repository.Repository"


def test_repositories_make_theirs_with_the_maker() -> None:
    assert (
        "new_client(self.service, self.client_config)" in (FUNCTIONS / "common" / "repository.py").read_text()
    )


def test_the_makers_are_found() -> None:
    """The walk above would pass vacuously if it no longer recognised a call."""
    assert all(client_calls(path) for path in MAKERS)
