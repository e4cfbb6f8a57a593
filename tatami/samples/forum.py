"""Sample data of the forum service: the Forum, Thread and Reply items exactly as seed 001 prints
them (data/seed_001_forum.json), written through the forum's own repository."""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

from tatami.samples import DATA
from tatami.target import cloud_target
from tatami_functions import stack_outputs

if TYPE_CHECKING:
    from tatami.local.cloud import LocalCloud
    from tatami.samples import LoadProgress
    from tatami.target import Target
    from tatami_functions.forum.repository import ForumRepository

FORUM_OUTPUTS = (
    stack_outputs.OUTPUT_FORUMS_TABLE,
    stack_outputs.OUTPUT_THREADS_TABLE,
    stack_outputs.OUTPUT_REPLIES_TABLE,
)
EXAMPLES = (
    "/forums",
    "/forums/DynamoDB/threads",
    "/forums/DynamoDB/threads/DynamoDB%20Thread%201/replies"
    "?from=2011-12-15T00:00:00.000Z&to=2011-12-31T23:59:59.999Z",
)


@cache
def forum_items() -> dict[str, list[dict[str, Any]]]:
    """Seed 001's items by table: {"Forum": [...], "Thread": [...], "Reply": [...]}."""
    data = json.loads((DATA / "seed_001_forum.json").read_text(encoding="utf-8"))
    return {table: data[table] for table in ("Forum", "Thread", "Reply")}


# The repository is imported when a load runs, so the CLI's other commands start without it.
def load_forum(target: Target, client: Any, items: dict[str, list[dict[str, Any]]]) -> None:
    from tatami_functions.forum.repository import ForumRepository
    from tatami_functions.forum.settings import ForumTables

    tables = ForumTables(*(target.output(key) for key in FORUM_OUTPUTS))
    save_items(ForumRepository(tables, client), items)


def save_items(forum: ForumRepository, items: dict[str, list[dict[str, Any]]]) -> None:
    """Save the forums, then their threads, then the replies (as the seed prints them)."""
    for table, save in (
        ("Forum", forum.save_forum),
        ("Thread", forum.save_thread),
        ("Reply", forum.save_reply),
    ):
        for item in items[table]:
            save(item)


def load(cloud: LocalCloud, progress: LoadProgress) -> str:
    """Write seed 001's forums, threads and replies; a one-line summary."""
    target, items = cloud_target(cloud), forum_items()
    load_forum(target, target.client("dynamodb"), items)
    total = sum(map(len, items.values()))
    progress(total, total)
    return f"{len(items['Forum'])} forums, {len(items['Thread'])} threads, {len(items['Reply'])} replies"
