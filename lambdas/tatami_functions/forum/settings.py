"""The forum function's settings: its three tables (infra/services/forum.py sets them)."""

from __future__ import annotations

from tatami_functions.common.settings import Settings, variable


class ForumTables(Settings):
    forums: str = variable("FORUMS_TABLE_NAME")
    threads: str = variable("THREADS_TABLE_NAME")
    replies: str = variable("REPLIES_TABLE_NAME")
