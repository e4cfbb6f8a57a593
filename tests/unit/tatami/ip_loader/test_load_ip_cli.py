"""`tatami load-ip` without a deployment: --help, --dry-run, and bad files (exit 1, lines named)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tatami.cli import main
from tatami.samples.ip_lookup import DATA


def test_help_documents_the_format_and_the_options() -> None:
    result = CliRunner().invoke(main, ["load-ip", "--help"])
    assert result.exit_code == 0
    for text in (
        "start,end",
        "network",
        "--local",
        "--dry-run",
        "--workers",
        "--ipv6-prefix",
        "--grace",
        "--force",
    ):
        assert text in result.output
    assert "load-ip" in CliRunner().invoke(main, ["--help"]).output


def test_dry_run_of_the_sample_plans_and_writes_nothing() -> None:
    result = CliRunner().invoke(main, ["load-ip", "--dry-run", str(DATA)])
    assert result.exit_code == 0, result.output
    first, *simulated = result.output.splitlines()
    plan = "3,644 rows -> 3,967 items (323 gaps, 0 splits) under 10 partition keys"
    assert first == f"dry run: {plan}; nothing was written"
    assert "simulated load into a new on-demand" in simulated[0]  # the capacity model's estimate


def test_dry_run_with_another_ipv6_prefix() -> None:
    result = CliRunner().invoke(main, ["load-ip", "--dry-run", "--ipv6-prefix", "16", str(DATA)])
    assert result.exit_code == 0 and "under 8 partition keys" in result.output


def test_a_bad_file_fails_with_every_line_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("start,end,asn\n1.0.0.0,1.0.0.255,1\n1.0.0.9,1.0.1.0,2\n3.0.0.0,2.0.0.0,3\n")
    result = CliRunner().invoke(main, ["load-ip", "--dry-run", str(path)])
    assert result.exit_code == 1
    assert "bad.csv:4: start 3.0.0.0 > end 2.0.0.0" in result.output
    result = CliRunner().invoke(main, ["load-ip", str(path)])  # validation comes before any target
    assert result.exit_code == 1 and "nothing was written" in result.output


def test_missing_file_and_bad_prefix_are_usage_errors(tmp_path: Path) -> None:
    assert CliRunner().invoke(main, ["load-ip", str(tmp_path / "none.csv")]).exit_code == 2
    assert CliRunner().invoke(main, ["load-ip", "--ipv6-prefix", "99", str(DATA)]).exit_code == 2
