"""zorder.report: plain-text tables."""

from __future__ import annotations

from zorder import Schema, UInt, WorkloadQuery, advice_table, advise, estimate_table, explain
from zorder.report import format_table


def test_format_table_aligns_numbers_right() -> None:
    text = format_table(["k", "n", "f"], [["a", 1, 0.5], ["long", 1234567, 2.0]])
    assert text.splitlines() == [
        "k             n    f",
        "----  ---------  ---",
        "a             1  0.5",
        "long  1,234,567    2",
    ]
    assert format_table(["only"], []) == "only\n----"


def test_estimate_table_mentions_the_budget() -> None:
    schema = Schema.of(y=UInt(3), x=UInt(3))
    text = estimate_table(explain(schema, schema.box({"x": 2, "y": 2}, {"x": 3, "y": 6}), max_ranges=2))
    assert "addresses touched (estimate): 10 of 64" in text
    assert text.endswith("with ranges(box, 2): 2 ranges covering 14 addresses (1.4x the estimate)")


def test_advice_table_ranks() -> None:
    text = advice_table(advise([WorkloadQuery("q", 1, {"a": 0.1, "b": 0.9})]))
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["rank", "attribute", "score"]
    assert lines[2].split()[:3] == ["1", "a", "0.9"] and "include" in lines[2]
    assert lines[3].split()[:2] == ["2", "b"] and "leave out" in lines[3]
