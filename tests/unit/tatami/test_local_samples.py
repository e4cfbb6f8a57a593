"""`tatami local --services`: the selected services' samples, and only theirs, load and show their
examples; each service's load says one line, a failing one FAILED with its reason."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tatami.commands.local import _load_samples, _print_banner
from tatami.samples import Sample
from tatami.samples.catalog import SAMPLES, selected


class Log:
    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def write(self, source: str, line: str) -> None:
        self.lines.append((source, line))


def fake_cloud() -> Any:
    return SimpleNamespace(
        api_url="http://api", dynamodb_endpoint="http://ddb", moto_endpoint="http://moto", log=Log()
    )


def test_a_selection_names_exactly_its_services_samples() -> None:
    assert [sample.name for sample in selected("places,counters")] == ["counters", "places"]
    assert [sample.name for sample in selected(" ip_lookup ")] == ["ip_lookup"]
    assert selected("all") == selected(None) == list(SAMPLES.values())


def test_a_selected_service_without_sample_data_loads_nothing() -> None:
    assert selected("docs") == []  # the docs service serves the OpenAPI document: no data of its own


def test_each_service_loads_in_turn_with_one_line_and_a_failure_does_not_stop_the_rest() -> None:
    def refuse(cloud: Any, progress: Any) -> str:
        raise RuntimeError("PUT /x -> 503")

    loaded: list[str] = []
    samples = [
        Sample("forum", refuse),
        Sample("counters", lambda cloud, progress: loaded.append("counters") or "2 counters"),
    ]
    cloud = fake_cloud()
    _load_samples(cloud, samples)
    assert loaded == ["counters"]
    lines = [line for source, line in cloud.log.lines if source == "samples"]
    assert lines[0] == "forum: FAILED: RuntimeError: PUT /x -> 503"
    assert lines[1].startswith("counters: 2 counters (") and len(lines) == 2


def test_the_banner_suggests_the_selected_services_examples_only(capsys: pytest.CaptureFixture[str]) -> None:
    _print_banner(fake_cloud(), "http://console", selected("counters"), 1.0)
    shown = capsys.readouterr().out
    assert all(f"curl -s 'http://api{example}'" in shown for example in SAMPLES["counters"].examples)
    assert "/places/" not in shown and "/forums" not in shown
