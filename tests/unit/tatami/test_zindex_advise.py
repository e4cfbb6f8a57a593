"""`tatami zindex advise` on the in-memory model of a places table: index advice for a workload, and
each index sized for a table size and write rate (the busiest bucket within a partition's writes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tatami.commands import (
    zindex,  # the group (the package exports it)
    zindex_advise,
)
from tatami.zindex_growth.cities import Cities
from tatami.zindex_growth.generator import generate
from tatami.zindex_growth.statistics import statistics
from tatami.zindex_growth.table import places_model
from tatami_functions.places.table import PLACES
from zindex.analyze import store
from zindex.dynamodb import IndexRepository

DECLARATION = PLACES.named("advised")


@pytest.fixture
def places(monkeypatch: pytest.MonkeyPatch, growth_cities: Cities) -> None:
    model = places_model(DECLARATION, generate(30_000, growth_cities, seed=8), growth_cities)
    repository = IndexRepository(DECLARATION, model)  # type: ignore[arg-type]
    store(repository, statistics(DECLARATION, model.table(DECLARATION.table)))
    monkeypatch.setattr(zindex_advise, "open_table", lambda local, name: (None, repository))


def _advise(*arguments: str) -> Any:
    return CliRunner().invoke(zindex, ["advise", "--sample", "3000", *arguments])


def _bits(output: str) -> int:
    line = next(line for line in output.splitlines() if "bucket bits (11 declared)" in line)
    return int(line.split(":")[1].split()[0])


@pytest.mark.usefixtures("places")
def test_bucket_bits_grow_with_the_write_rate_until_the_busiest_bucket_fits() -> None:
    quiet, busy = (
        _advise("--writes-per-second", "50"),
        _advise("--writes-per-second", "4000", "--items", "100000000"),
    )
    assert quiet.exit_code == busy.exit_code == 0, busy.output
    assert "SIZE places: 100,000,000 items, 4,000 item writes/s" in busy.output
    assert _bits(quiet.output) < _bits(busy.output) <= 16
    options = [line.split() for line in busy.output.splitlines() if " bits: busiest" in line]
    verdicts = {int(o[o.index("bits:") - 1]): o[-1] for o in options}
    assert verdicts[_bits(busy.output)] == "fits" and verdicts[_bits(busy.output) - 1] == "partition"  # hot
    shards = [
        line for output in (quiet.output, busy.output) for line in output.splitlines() if "shards (4" in line
    ]
    assert shards[0].strip().startswith("places-population: 1 shards")  # 50 writes/s: one partition is plenty
    assert int(shards[1].split(":")[1].split()[0]) == 15  # 4,000 writes/s of 3 entry writes: 12,000 WCU/s


@pytest.mark.usefixtures("places")
def test_index_advice_and_sizing_together(tmp_path: Path) -> None:
    workload = tmp_path / "searches.txt"
    workload.write_text("latitude=40..41 longitude=2..3\npopulation=1000000..\n")
    both = _advise("--workload", str(workload), "--writes-per-second", "100")
    assert both.exit_code == 0, both.output
    assert "ADVISE places: 2 searches" in both.output and "SIZE places:" in both.output
    assert _advise().exit_code != 0  # neither a workload nor a write rate
