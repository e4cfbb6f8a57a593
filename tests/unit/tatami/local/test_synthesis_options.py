"""`tatami local --app DIR --services a,b`: which app.py is run, into which folder, with which context
(the subprocess is stubbed; tests/integration/app/test_service_selection_cloud.py serves a selection)."""

from __future__ import annotations

import importlib
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

local_command = importlib.import_module("tatami.commands.local")  # the package's `local` is the command


def test_another_app_is_synthesized_in_its_folder_with_the_selection(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    runs: list[dict[str, Any]] = []

    def run(command: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
        runs.append({"command": command, **options})
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(local_command.subprocess, "run", run)
    monkeypatch.delenv("CDK_CONTEXT_JSON", raising=False)
    local_command.synthesize(tmp_path / "cdk.out", tmp_path / "app", "places,counters")
    local_command.synthesize(tmp_path / "all.out")
    selected, everything = runs
    assert selected["cwd"] == tmp_path / "app" and selected["command"][-1] == "app.py"
    assert selected["env"]["CDK_OUTDIR"] == str(tmp_path / "cdk.out")
    assert json.loads(selected["env"]["CDK_CONTEXT_JSON"]) == {"services": "places,counters"}
    assert everything["cwd"] == local_command.repo_root()
    assert "CDK_CONTEXT_JSON" not in everything["env"]  # every service
