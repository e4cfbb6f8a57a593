"""tatami_functions.devices.merge: paging a newest-first merge never skips, repeats or reorders."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tatami_functions.devices.merge import Order, Stream, merge_page

ORDER = Order[tuple[int, str, bool]](
    of_item=lambda item: item[0],
    key_of=lambda item: {"t": item[0], "id": item[1]},
    of_key=lambda key: key["t"],
)


def stream(name: str, items: list[tuple[int, str, bool]], page_limit: int | None = None) -> Stream[Any]:
    """A fake query: items newest first; hidden ones (item[2]) are read but filtered out, as expired logs are.

    `page_limit` imitates DynamoDB stopping early (1 MB) with a LastEvaluatedKey.
    """
    ordered = sorted(items, key=lambda item: (item[0], item[1]), reverse=True)

    def fetch(start: dict[str, Any] | None, n: int) -> tuple[list[Any], dict[str, Any] | None]:
        position = 0 if start is None else 1 + ordered.index(next(i for i in ordered if i[1] == start["id"]))
        read = ordered[position : position + min(n, page_limit or n)]
        more = position + len(read) < len(ordered)
        visible = [item for item in read if not item[2]]
        return visible, ({"t": read[-1][0], "id": read[-1][1]} if more and read else None)

    return Stream(name, fetch)


def read_all(streams: list[Stream[Any]], limit: int, per_stream: int) -> list[Any]:
    found, cursor, pages = [], None, 0
    while True:
        page, cursor = merge_page(streams, cursor, limit, per_stream, ORDER)
        assert len(page) <= limit
        found += page
        pages += 1
        assert pages < 1000, "the merge must make progress"
        if cursor is None:
            return found


items = st.lists(st.tuples(st.integers(0, 50), st.booleans()), max_size=30)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(items, min_size=1, max_size=5),
    st.integers(1, 10),
    st.integers(1, 10),
    st.one_of(st.none(), st.integers(1, 3)),
)
def test_pages_concatenate_to_every_visible_item_newest_first(
    contents: list[list[tuple[int, bool]]], limit: int, per_stream: int, page_limit: int | None
) -> None:
    streams = []
    expected = []
    for s, content in enumerate(contents):
        logs = [(t, f"{s}-{n}", hidden) for n, (t, hidden) in enumerate(content)]
        streams.append(stream(str(s), logs, page_limit))
        expected += [log for log in logs if not log[2]]
    found = read_all(streams, limit, per_stream)
    assert sorted(found) == sorted(expected)  # nothing skipped, nothing twice
    assert [log[0] for log in found] == sorted((log[0] for log in found), reverse=True)


def test_a_short_page_reads_on_from_the_stream_that_stopped_newest() -> None:
    busy = stream("busy", [(t, f"b{t}", False) for t in range(10, 20)])
    quiet = stream("quiet", [(15, "q15", False), (1, "q1", False)])
    page, cursor = merge_page([busy, quiet], None, limit=10, per_stream=3, order=ORDER)
    # busy stops after 3 items each time; nothing older than where it stopped is safe until it reads on.
    assert [item[0] for item in page] == [19, 18, 17, 16, 15, 15, 14, 13, 12, 11]
    assert cursor == {"after": {"busy": {"t": 11, "id": "b11"}, "quiet": {"t": 15, "id": "q15"}}, "done": []}
    rest, end = merge_page([busy, quiet], cursor, limit=10, per_stream=3, order=ORDER)
    assert [item[0] for item in rest] == [10, 1] and end is None


def test_the_last_page_has_no_cursor() -> None:
    only = stream("a", [(3, "x", False)])
    assert merge_page([only], None, 5, 5, ORDER) == ([(3, "x", False)], None)
