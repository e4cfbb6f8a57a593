"""`tatami doctor` synthesizes into a folder of its own and leaves the checkout's cdk.out alone unless
`--cdk-out` names it (the synthesis and the checks are stubbed: `make check-deploy` runs them for real)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tatami import doctor as checks

command = importlib.import_module("tatami.commands.doctor")  # the package's `doctor` is the command


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, list[Any]]:
    calls: dict[str, list[Any]] = {"synthesized": [], "checked": [], "services": []}

    def synthesize(cdk_out: Path, services: str | None = None) -> None:
        (cdk_out / "manifest.json").parent.mkdir(parents=True)
        (cdk_out / "manifest.json").write_text("{}")
        calls["synthesized"].append(cdk_out)
        calls["services"].append(services)

    def diagnose(cdk_out: Path) -> list[checks.Finding]:
        calls["checked"].append(cdk_out)
        assert (cdk_out / "manifest.json").is_file()
        return []

    monkeypatch.setattr(command, "synthesize", synthesize)
    monkeypatch.setattr(checks, "diagnose", diagnose)
    monkeypatch.setattr(command, "repo_root", lambda: tmp_path)
    return calls


def test_by_default_it_checks_a_synthesis_of_its_own_and_removes_it(
    recorded: dict[str, list[Any]], tmp_path: Path
) -> None:
    result = CliRunner().invoke(command.doctor, [])
    assert result.exit_code == 0, result.output
    (folder,) = recorded["synthesized"]
    assert recorded["checked"] == [folder]
    assert not folder.is_relative_to(tmp_path), "the checkout's cdk.out is left alone"
    assert not folder.exists(), "the temporary assembly is removed"
    assert "no findings" in result.output


def test_cdk_out_names_the_folder_to_synthesize(recorded: dict[str, list[Any]], tmp_path: Path) -> None:
    result = CliRunner().invoke(command.doctor, ["--cdk-out", str(tmp_path / "mine")])
    assert result.exit_code == 0, result.output
    assert recorded["synthesized"] == recorded["checked"] == [tmp_path / "mine"]


def test_no_synth_checks_the_checkouts_assembly_as_it_is(
    recorded: dict[str, list[Any]], tmp_path: Path
) -> None:
    (tmp_path / "cdk.out").mkdir()
    (tmp_path / "cdk.out" / "manifest.json").write_text("{}")
    result = CliRunner().invoke(command.doctor, ["--no-synth"])
    assert result.exit_code == 0, result.output
    assert recorded["synthesized"] == []
    assert recorded["checked"] == [tmp_path / "cdk.out"]


def test_services_synthesizes_the_selection(recorded: dict[str, list[Any]], tmp_path: Path) -> None:
    result = CliRunner().invoke(command.doctor, ["--services", "places,counters"])
    assert result.exit_code == 0, result.output
    assert recorded["services"] == ["places,counters"]
