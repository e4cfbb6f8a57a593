"""The Forum, Thread and Reply tables of seed 001, declared once (the repository reads their keys, the
construct builds them): exactly as the seed draws them, no GSI.

Forum has a hash key (Name): the forum list is the one Scan. Thread (ForumName + Subject) and Reply
(Id + ReplyDateTime) have composite keys: a forum's threads and a thread's replies are one Query each.
Reply's Id joins forum name and subject with '#' (`replies.reply_id`).
"""

from __future__ import annotations

from tatami_functions.common.tables import TableSchema

FORUMS = TableSchema("Name")
THREADS = TableSchema("ForumName", "Subject")
REPLIES = TableSchema("Id", "ReplyDateTime")
