"""`tatami capacity counters --keyed`, `mix`, rate steps, a GSI's own capacity, an on-demand maximum."""

from __future__ import annotations

import csv
from pathlib import Path

from click.testing import CliRunner

from tatami.cli import main

ONE_RUN = ["--seeds", "1", "--assume", "middle"]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*args, *ONE_RUN] if args[:1] == ("capacity",) else list(args))
    return result.exit_code, result.output


def test_keyed_increments_on_one_shard_say_what_the_callers_saw_and_what_it_costs() -> None:
    code, output = run(
        "capacity", "counters", "--shards", "1", "--rate", "600", "--keyed", "1", "--minutes", "0.2"
    )
    assert code == 0, output
    assert output.startswith("votes: 1 shards, 600 increments/s, 100% keyed for 0.2 min")
    assert "client: standard retries (3 attempts)" in output  # the counters functions' own client
    assert "shard the item: 2 items" in output and "keyed increments: 1" in output and "failed" in output
    assert "0 SDK retries" in output  # a cancelled transaction is not retried
    assert "cost, sustained (us-east-1 list prices of 2024-11-01): on-demand $" in output
    assert "requests failed" in output and "cost a month" in output


def test_mix_reads_and_writes_at_steps_names_the_hot_key_and_its_fixes() -> None:
    code, output = run(
        "capacity", "mix", "--keys", "500", "--writes", "500", "--reads", "3000,6000@5", "--consistent",
        "--item-bytes", "2000", "--hot-share", "0.5", "--minutes", "0.25",
    )  # fmt: skip
    assert code == 0, output
    assert output.splitlines()[0].startswith("writes 500/s, reads 3,000/s, 6,000/s from 5 s over 500 keys")
    assert "hot key key-0" in output and "eventually consistent reads" in output
    assert "the application saw: writes:" in output and "; reads:" in output


def test_a_bad_rate_and_misplaced_options_name_the_option() -> None:
    code, output = run("capacity", "reads", "--rate", "5000,fast", "--minutes", "0.1")
    assert code == 2 and "--rate" in output and "step 2 'fast'" in output
    code, output = run("capacity", "mix", "--keys", "10")
    assert code == 2 and "--writes, --reads, --transactions" in output
    code, output = run("capacity", "mix", "--writes", "10", "--provisioned", "100", "--max-throughput", "50")
    assert code == 2 and "--max-throughput applies to on-demand tables" in output


def test_a_csv_with_an_index_key_column_and_its_own_capacity(tmp_path: Path) -> None:
    path = tmp_path / "orders.csv"
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["order", "status"])
        writer.writerows((f"order-{n}", "PENDING") for n in range(3000))
    args = ["capacity", "csv", str(path), "--key", "order", "--gsi-key", "status", "--order", "shuffled"]
    code, output = run(*args, "--workers", "4", "--provisioned", "5000", "--gsi-capacity", "200")
    assert code == 0, output
    assert "index table gsi" in output and "GSI back pressure" in output
    code, output = run(*args, "--gsi-key", "nope")
    assert code == 1 and "no column 'nope'" in output


def test_an_export_order_reload_is_told_to_shuffle(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_text("user\n" + "\n".join(f"user-{n}" for n in range(5000)) + "\n")
    code, output = run("capacity", "csv", str(path), "--key", "user", "--order", "export")
    assert code == 0, output
    assert "rolling hot partition: the load is in key order" in output and "shuffle the load" in output
