"""The forum repository names the same keys as the table declarations the stack is built from."""

from tatami_functions.forum import repository as forum
from tatami_functions.forum.table import FORUMS, REPLIES, THREADS


def test_forum_keys() -> None:
    assert forum.FORUM_KEY == ("Name",)
    assert forum.THREAD_KEY == ("ForumName", "Subject") == THREADS.key_names
    assert forum.REPLY_KEY == ("Id", "ReplyDateTime") == REPLIES.key_names
    assert FORUMS.indexes == THREADS.indexes == REPLIES.indexes == ()  # the seed draws no GSI
