"""Seed 001's forum: the Forum, Thread and Reply tables (`tatami_functions.forum.table`) and the
read-only API function on `GET /forums/...`."""

from __future__ import annotations

from constructs import Construct

from infra.constructs.api_function import ApiFunction
from infra.constructs.shared import Shared
from infra.constructs.table_grants import grant_table
from tatami_functions import stack_outputs
from tatami_functions.forum.settings import ForumTables
from tatami_functions.forum.table import FORUMS, REPLIES, THREADS


class ForumService(Construct):
    """Forum (Name), Thread (ForumName + Subject), Reply (Id + ReplyDateTime); a read-only API.

    For example (not run as a doctest)::

        ForumService(stack, "ForumModel", shared=shared)
    """

    def __init__(self, scope: Construct, construct_id: str, *, shared: Shared) -> None:
        super().__init__(scope, construct_id)
        self.forums = shared.data_table(self, "Forums", FORUMS, output=stack_outputs.OUTPUT_FORUMS_TABLE)
        self.threads = shared.data_table(self, "Threads", THREADS, output=stack_outputs.OUTPUT_THREADS_TABLE)
        self.replies = shared.data_table(self, "Replies", REPLIES, output=stack_outputs.OUTPUT_REPLIES_TABLE)
        self.function = ApiFunction(
            self,
            "Function",
            shared=shared,
            service="forum",
            environment=ForumTables.environment(
                forums=self.forums.table_name,
                threads=self.threads.table_name,
                replies=self.replies.table_name,
            ),
            description="The forum's REST routes (seed 001)",
        )
        # The forum API only reads: the forum list is the one Scan; a thread's replies one Query.
        grant_table(self.function, self.forums, "Scan", "GetItem")
        grant_table(self.function, self.threads, "Query", "GetItem")
        grant_table(self.function, self.replies, "Query")
