"""`tatami scan` against DynamoDB Local: the employees table (4,000 items) counted and exported whole."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tatami.target import Target
from tests.support.invoices_employees import Labs

command = importlib.import_module("tatami.commands.scan")  # the package re-exports the command's name


@pytest.fixture
def target(labs: Labs, dynamodb_local: str, monkeypatch: pytest.MonkeyPatch) -> Target:
    found = Target("local", {"EmployeesTableName": labs.employees}, dynamodb_local)
    monkeypatch.setattr(command, "resolve_target", lambda local: found)
    return found


def run(*args: str) -> Any:
    return CliRunner().invoke(command.scan, [*args, "--local", "--no-progress"])


@pytest.mark.parametrize("segments", ["1", "4"])
def test_counting_the_employees(target: Target, tmp_path: Path, segments: str) -> None:
    checkpoint = str(tmp_path / "count.json")
    result = run("Employees", "--segments", segments, "--checkpoint", checkpoint)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{target.outputs['EmployeesTableName']}: 4,000 items")


def test_exporting_the_employees(target: Target, labs: Labs, tmp_path: Path) -> None:
    output = tmp_path / "employees.jsonl"
    result = run("EmployeesTableName", "--segments", "4", "--output", str(output), "--page-size", "250")
    assert result.exit_code == 0, result.output
    exported = [json.loads(line)["Item"] for line in output.read_text().splitlines()]
    keys = sorted((item["PK"]["S"], item["SK"]["S"]) for item in exported)
    assert len(keys) == len(set(keys)) == 4000
    assert ("e#40", "master") in keys
