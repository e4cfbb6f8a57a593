"""`tatami load-ip` end to end on DynamoDB Local: the summary, the rerun, a resumed interrupted load."""

from __future__ import annotations

import importlib
import re

import pytest
from click.testing import CliRunner

from tatami.cli import main
from tatami.ip_loader.store import RangesStore
from tatami.samples.ip_lookup import DATA
from tests.integration.ip_lookup.conftest import Ranges

load_ip = importlib.import_module("tatami.commands.load_ip")  # the package exports the command by this name


@pytest.fixture
def cli(ranges: Ranges, monkeypatch: pytest.MonkeyPatch) -> Ranges:
    """`--local` and the deployed stack both resolve to this test's table."""
    monkeypatch.setattr(load_ip, "resolve_target", lambda local: ranges.target)
    return ranges


def test_the_sample_loads_with_a_summary_and_a_rerun_is_a_no_op(cli: Ranges) -> None:
    result = CliRunner().invoke(main, ["load-ip", "--local", "--no-progress", str(DATA)])
    assert result.exit_code == 0, result.output
    first, second = result.output.strip().splitlines()[-2:]
    assert first == (
        "v1 is live on test: 3,644 rows -> 3,967 items (323 gaps, 0 splits) under 10 partition keys"
    )
    assert re.fullmatch(
        r"wrote 3,967 items in [\d.]+ s \([\d,]+ items/s, 3,967 WCU\); [\d.]+ s in all", second
    ), second
    again = CliRunner().invoke(main, ["load-ip", "--local", str(DATA)])
    assert again.exit_code == 0
    assert "v1 on test already serves these files; nothing to do (--force loads again)" in again.output


def test_an_interrupted_cli_load_says_how_to_resume_and_does(
    cli: Ranges, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = {"n": 0}
    original = RangesStore.write

    def flaky(self: RangesStore, requests: list[dict[str, object]]) -> float:
        calls["n"] += 1
        if calls["n"] == 50:  # chunks are 20 batches: the first two are done by then
            raise KeyboardInterrupt  # Ctrl-C in the middle of the write phase
        return original(self, requests)

    monkeypatch.setattr(RangesStore, "write", flaky)
    result = CliRunner().invoke(main, ["load-ip", "--workers", "2", str(DATA)])
    assert result.exit_code == 1
    assert re.search(
        r"v1 stopped after [1-7] of 8 chunks \(KeyboardInterrupt\); run the same command again", result.output
    )
    resumed = CliRunner().invoke(main, ["load-ip", "--workers", "2", str(DATA)])
    assert resumed.exit_code == 0, resumed.output
    assert re.search(r"resuming v1: [1-7] of 8 chunks were written before", resumed.output)
    wrote = re.search(r"wrote ([\d,]+) items .* WCU, resumed after [1-7] finished chunks\)", resumed.output)
    assert wrote and int(wrote[1].replace(",", "")) < 3_967  # the finished chunks were not rewritten
    assert "v1 is live on test" in resumed.output
