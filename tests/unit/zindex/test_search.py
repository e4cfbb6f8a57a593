"""The Searcher's statistics: the table's own, those given at construction, or uniform ones with the
reason, which each page carries for the route to log."""

from __future__ import annotations

from typing import Any

from tatami_functions.places.table import PLACES
from zindex.search import Searcher
from zindex.statistics import Statistics

TABLE = PLACES.named("T")


class _Unanalysed:
    """A repository whose table has no statistics item yet."""

    table = TABLE

    def get_statistics(self) -> dict[str, bytes]:
        return {}


def test_a_table_without_statistics_is_planned_with_uniform_ones_and_says_why() -> None:
    searcher = Searcher(_Unanalysed())  # type: ignore[arg-type]
    reason = searcher.without_statistics()
    assert reason is not None and "tatami zindex analyze" in reason
    assert searcher.statistics() == Statistics.uniform(TABLE)


def test_statistics_given_at_construction_are_planned_with_and_never_read() -> None:
    given = Statistics.uniform(TABLE, items=42)

    class _Unreadable(_Unanalysed):
        def get_statistics(self) -> Any:
            raise AssertionError("given statistics are not read from the table")

    searcher = Searcher(_Unreadable(), statistics=given)  # type: ignore[arg-type]
    assert searcher.statistics() is given and searcher.without_statistics() is None
