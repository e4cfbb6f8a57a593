"""Deprecated alias of :mod:`zorder.cost` (the seed's cost formula: it estimates, it plans nothing).

Kept so code written against ``zorder.planner`` keeps working; import :mod:`zorder.cost` instead.
"""

from __future__ import annotations

import warnings

from zorder.cost import (
    DimensionCost,
    Estimate,
    FormulaRow,
    estimate,
    explain,
    formula_rows,
    seed_formula,
)

__all__ = ["DimensionCost", "Estimate", "FormulaRow", "estimate", "explain", "formula_rows", "seed_formula"]

warnings.warn("zorder.planner is deprecated: import zorder.cost", DeprecationWarning, stacklevel=2)
