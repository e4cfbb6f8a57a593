"""Plain-text tables for the cost estimate and the advisor (pure: strings in, strings out)."""

from __future__ import annotations

from collections.abc import Sequence

from zorder.advisor import Advice
from zorder.cost import Estimate, FormulaRow

__all__ = ["advice_table", "estimate_table", "format_table", "formula_table"]


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Columns padded to their widest cell; numbers right-aligned, with thousands separators.

    >>> print(format_table(["name", "n"], [["a", 65536], ["bb", 1]]))
    name       n
    ----  ------
    a     65,536
    bb         1
    """
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(headers)]
    numeric = [
        bool(rows) and all(isinstance(r[i], int | float) and not isinstance(r[i], bool) for r in rows)
        for i in range(len(headers))
    ]

    def line(values: Sequence[str]) -> str:
        padded = (v.rjust(w) if n else v.ljust(w) for v, w, n in zip(values, widths, numeric, strict=True))
        return "  ".join(padded).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in cells)])


def estimate_table(estimate: Estimate) -> str:
    """Per-dimension breakdown of an estimate, then the totals (and the range budget, if any).

    >>> from zorder import Schema, UInt, explain
    >>> schema = Schema.of(y=UInt(3), x=UInt(3))
    >>> print(estimate_table(explain(schema, schema.box({"y": 2}, {"y": 6}))))
    dimension  type          bits  bounds  selected    b_d
    ---------  ------------  ----  ------  --------  -----
    y          UInt(bits=3)     3  2 .. 6     0.625  0.226
    x          UInt(bits=3)     3  any            1      0
    addresses touched (estimate): 40 of 64 (0.625 of the search space)
    """
    rows = [
        [d.name, d.encoding, d.bits, d.shown, d.fraction, round(d.pinned, 3)] for d in estimate.dimensions
    ]
    text = format_table(["dimension", "type", "bits", "bounds", "selected", "b_d"], rows)
    lines = [
        text,
        f"addresses touched (estimate): {estimate.addresses:,} of {estimate.search_space:,}"
        f" ({estimate.share:.3g} of the search space)",
    ]
    if estimate.ranges is not None and estimate.covered is not None:
        lines.append(
            f"with ranges(box, {estimate.max_ranges}): {estimate.ranges:,} ranges covering"
            f" {estimate.covered:,} addresses ({estimate.covered / estimate.addresses:.3g}x the estimate)"
        )
    return "\n".join(lines)


def formula_table(rows: Sequence[FormulaRow]) -> str:
    """The seed's formula table: query, exactly bound dimensions, formula, simplified, addresses."""
    return format_table(
        ["query", "exactly bound", "formula", "simplified", "addresses touched"],
        [[r.query, r.bound, r.formula, r.simplified, r.addresses] for r in rows],
    )


def advice_table(advice: Sequence[Advice]) -> str:
    """The advisor's ranking, best attribute first."""
    return format_table(
        ["rank", "attribute", "score", "bound in", "excludes", "verdict", "reason"],
        [
            [
                i,
                a.attribute,
                round(a.score, 3),
                f"{a.bound_share:.0%}",
                f"{a.exclusion:.0%}",
                a.verdict,
                a.reason,
            ]
            for i, a in enumerate(advice, 1)
        ],
    )
