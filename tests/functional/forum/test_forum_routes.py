"""The forum routes through their resolver on moto: bad input is a 400 naming the field, unknown ids are
404s, percent-encoded paths answer (reads are proven on DynamoDB Local)."""

from __future__ import annotations

import pytest

from tests.support import forum_orders_moto
from tests.support.forum_orders_moto import assert_400, call

aws = forum_orders_moto.aws  # the module's moto and tables (autouse)


@pytest.mark.parametrize(
    ("path", "query", "field"),
    [
        ("/forums", {"limit": "0"}, "limit"),
        ("/forums", {"limit": "1001"}, "limit"),
        ("/forums", {"next": "not-a-token"}, "next"),
        ("/forums/a%23b/threads", None, "forum"),
        ("/forums/DynamoDB/threads", {"limit": "many"}, "limit"),
        ("/forums/DynamoDB/threads/DynamoDB%20Thread%201/replies", {"from": "yesterday"}, "from"),
        ("/forums/DynamoDB/threads/DynamoDB%20Thread%201/replies", {"to": "2011-13-01"}, "to"),
        (
            "/forums/DynamoDB/threads/DynamoDB%20Thread%201/replies",
            {"from": "2011-12-31T00:00:00Z", "to": "2011-12-15T00:00:00Z"},
            "from",
        ),
        ("/forums/DynamoDB/threads/DynamoDB%20Thread%201/replies", {"order": "sideways"}, "order"),
        ("/forums/DynamoDB/threads/x%25y", None, "subject"),
    ],
)
def test_forum_routes_refuse_bad_input(path: str, query: dict[str, str] | None, field: str) -> None:
    assert_400(call("forum", "GET", path, query), field)


@pytest.mark.parametrize(
    "path", ["/forums/Nope", "/forums/Nope/threads", "/forums/DynamoDB/threads/Nope/replies"]
)
def test_forum_unknown_ids_are_404(path: str) -> None:
    status, body = call("forum", "GET", path)
    assert status == 404 and "no " in body["message"]


def test_forum_routes_answer_with_percent_encoded_paths() -> None:
    status, thread = call("forum", "GET", "/forums/DynamoDB/threads/DynamoDB%20Thread%201")
    assert status == 200 and thread["Subject"] == "DynamoDB Thread 1"
