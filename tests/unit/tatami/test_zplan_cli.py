"""`tatami zplan`: the planner's two tables from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tatami.commands.zplan import zplan
from zorder import Fixed, Schema, UInt

SPEC = "latitude:fixed:-90:90:16,longitude:fixed:-180:180:16,population:uint:32"
BOX = ["--min", "latitude=35", "--max", "latitude=36", "--min", "longitude=139", "--max", "longitude=140"]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(zplan, list(args))
    return result.exit_code, result.output


@pytest.fixture
def workload(tmp_path: Path) -> Path:
    path = tmp_path / "workload.json"
    queries = [
        {"name": "nearby", "frequency": 90, "selectivity": {"latitude": 0.01, "longitude": 0.01}},
        {"name": "big cities", "frequency": 10, "selectivity": {"population": 0.001}},
    ]
    path.write_text(json.dumps({"queries": queries}), encoding="utf-8")
    return path


def test_help_explains_the_options() -> None:
    code, out = run("--help")
    assert code == 0
    for word in ("--schema", "name:type:params", "--min", "--max", "--eq", "--workload", "--max-ranges"):
        assert word in out


def test_prints_the_estimate_the_formula_and_the_advice(workload: Path) -> None:
    code, out = run("--schema", SPEC, *BOX, "--workload", str(workload))
    assert code == 0, out
    assert "latitude Fixed(lo=-90, hi=90, bits=16)" in out and "(64 bits, 8-byte addresses)" in out
    assert "addresses touched (estimate):" in out and "with ranges(box, 64): 64 ranges" in out
    assert "population  UInt(bits=32)" in out and "any" in out
    assert "latitude = ? AND longitude = ? AND population = ?" in out
    advice = out.split("Attribute advice")[1].splitlines()
    assert advice[3].split()[:2] == ["1", "latitude"] and "include" in advice[3]
    assert advice[5].split()[:2] == ["3", "population"] and "leave out" in advice[5]


def test_schema_from_a_json_file_and_exact_bounds(tmp_path: Path) -> None:
    path = tmp_path / "schema.json"
    path.write_text(Schema.of(a=UInt(16), b=UInt(16), c=UInt(16), d=UInt(16)).to_json(), encoding="utf-8")
    code, out = run("--schema", str(path), "--eq", "a=5", "--eq", "b=2", "--eq", "c=8")
    assert code == 0, out
    assert "addresses touched (estimate): 65,536 of 18,446,744,073,709,551,616" in out  # the seed's 2^16 row
    # d's 65,536 keys are spread one per 4 address bits: 64 ranges must read far more than the box.
    assert "with ranges(box, 64): 64 ranges covering 4,691,249,611,904 addresses" in out


def test_inline_json_schema() -> None:
    code, out = run("--schema", Schema.of(lat=Fixed(-90, 90, 8)).to_json(), "--max-ranges", "2")
    assert code == 0, out
    assert "addresses touched (estimate): 256 of 256" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--schema", "latitude"], "name:type"),
        (["--schema", SPEC, "--min", "altitude=3"], "DIM one of latitude, longitude, population"),
        (["--schema", SPEC, "--min", "population=many"], "population=many"),
        (
            ["--schema", SPEC, "--min", "population=9", "--max", "population=3"],
            "lower 9 > upper 3 for 'population'",
        ),
        (["--schema", SPEC, "--min", "latitude=91"], "leaves nothing"),
        (["--schema", SPEC, "--max-ranges", "0"], "0"),
    ],
)
def test_bad_input_is_reported(args: list[str], message: str) -> None:
    code, out = run(*args)
    assert code != 0
    assert message in out


def test_bad_workload_files(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    path.write_text("{not json", encoding="utf-8")
    assert "not JSON" in run("--schema", SPEC, "--workload", str(path))[1]
    path.write_text('{"queries": 3}', encoding="utf-8")
    assert "list of queries" in run("--schema", SPEC, "--workload", str(path))[1]
    path.write_text('[{"name": "q", "frequency": 0}]', encoding="utf-8")
    assert "frequency must be > 0" in run("--schema", SPEC, "--workload", str(path))[1]
