"""`tatami capacity ...` and `tatami load-ip --dry-run`: workloads in, table + sparkline + verdict out."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tatami.cli import main

SAMPLE_RANGES = Path(__file__).resolve().parents[4] / "tatami" / "samples" / "data" / "ip_ranges.csv"


@pytest.fixture
def keys_file(tmp_path: Path) -> Path:
    path = tmp_path / "keys.csv"
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["prefix", "start"])
        writer.writerows((prefix, n) for prefix in ("10", "11", "12") for n in range(1500))
    return path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_a_csv_in_file_order_throttles_one_key_at_a_time_and_shuffled_goes_faster(keys_file: Path) -> None:
    code, ordered = run("capacity", "csv", str(keys_file), "--key", "prefix", "--sort-key", "start")
    assert code == 0, ordered
    assert "accepted  |" in ordered and "throttled |" in ordered and "throttles:" in ordered
    code, shuffled = run("capacity", "csv", str(keys_file), "--key", "prefix", "--order", "shuffled")
    assert code == 0, shuffled
    assert seconds(shuffled) < seconds(ordered)


def seconds(output: str) -> float:
    return float(output.split(" requests in ")[1].split(" s ")[0])


def test_bad_rows_are_listed_with_their_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("prefix,start\n10,1\n,2\n11,\n")
    code, output = run("capacity", "csv", str(path), "--key", "prefix", "--sort-key", "start")
    assert code == 1
    assert "bad.csv:3: empty 'prefix'" in output and "bad.csv:4: empty 'start'" in output
    code, output = run("capacity", "csv", str(path), "--key", "nope")
    assert code == 1 and "no column 'nope'" in output and "prefix, start" in output


def test_bad_table_options_name_the_option(keys_file: Path) -> None:
    code, output = run("capacity", "csv", str(keys_file), "--key", "prefix", "--limit", "bogus=1")
    assert code == 2 and "--limit" in output and "partition_write_units" in output
    code, output = run("capacity", "csv", str(keys_file), "--key", "prefix", "--provisioned", "many")
    assert code == 2 and "--provisioned" in output


def test_counters_sized_by_the_seed_formula(tmp_path: Path) -> None:
    rows = tmp_path / "rows.csv"
    code, output = run("capacity", "counters", "--target-wcu", "3000", "--minutes", "0.5", "--csv", str(rows))
    assert code == 0, output
    assert output.startswith("votes: 3 shards, 3,000 increments/s")
    assert "table/total" in rows.read_text()


def test_limits_lists_every_constant_with_its_source() -> None:
    code, output = run("capacity", "limits")
    assert code == 0
    assert "partition_write_units = 1000" in output and "https://docs.aws.amazon.com/" in output


def test_the_chart_is_written_with_matplotlib_and_the_rest_works_without(
    keys_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chart = tmp_path / "chart.png"
    code, output = run("capacity", "csv", str(keys_file), "--key", "prefix", "--png", str(chart))
    assert code == 0, output
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    code, output = run(
        "capacity", "csv", str(keys_file), "--key", "prefix", "--png", str(tmp_path / "no.png")
    )
    assert code == 1
    assert "throttles:" in output and "needs matplotlib" in output


def test_load_ip_dry_run_states_the_simulated_load_time_and_the_best_key_strategy() -> None:
    code, output = run("load-ip", str(SAMPLE_RANGES), "--dry-run")
    assert code == 0, output
    assert "nothing was written" in output
    for strategy in ("one partition key", "prefix keys, file order", "prefix keys, shuffled"):
        assert strategy in output
    assert output.count("<- best") == 1


def test_reads_of_one_hot_item_are_named_and_every_figure_is_a_range() -> None:
    code, output = run("capacity", "reads", "--items", "1", "--rate", "5000", "--minutes", "0.2")
    assert code == 0, output
    assert "hot item item-0" in output and "cache it" in output
    assert "over 5 runs (middle reading" in output and "verdicts             hot item 5/5" in output


def test_the_client_options_reach_the_simulated_sdk(keys_file: Path) -> None:
    args = ["capacity", "csv", str(keys_file), "--key", "prefix", "--order", "shuffled", "--assume", "middle"]
    code, output = run(*args, "--retry-mode", "legacy", "--latency", "20", "--workers", "4", "--seeds", "1")
    assert code == 0, output
    assert "client: legacy retries (10 attempts), 20 ms a call" in output
    assert "over 1 runs (middle reading" in output
    code, output = run(*args, "--retry-mode", "eager")
    assert code == 2 and "--retry-mode" in output


def test_limits_also_lists_the_open_choices_with_their_sources() -> None:
    code, output = run("capacity", "limits")
    assert code == 0
    assert "table_write_quota = 40000" in output and "ServiceQuotas.html" in output
    assert "accounting: token bucket" in output and "growth: optimistic" in output
