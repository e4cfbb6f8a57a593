"""What the forum routes take: a forum's name, a thread's subject, a window and order of replies.

The forum API only reads, so it has parameters and no bodies.
"""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler.openapi.params import Path, Query

from tatami_functions.common.instants import Instant
from tatami_functions.common.keys import PARTITION_KEY_BYTES, SORT_KEY_BYTES, utf8_at_most

# Subject is Thread's sort key; a reply's partition key (`Id`) is "<forum name>#<subject>".
Subject = Annotated[
    str,
    Path(min_length=1, max_length=1024, description="The thread's Subject (at most 1,024 bytes of UTF-8)"),
    utf8_at_most(SORT_KEY_BYTES),
]
ForumName = Annotated[
    str,
    Path(min_length=1, max_length=255, description="The forum's Name"),
    utf8_at_most(PARTITION_KEY_BYTES - len("#") - SORT_KEY_BYTES),
]
From = Annotated[Instant | None, Query(alias="from", description="Replies at or after (ISO 8601)")]
To = Annotated[Instant | None, Query(alias="to", description="Replies at or before (ISO 8601)")]
Order = Annotated[Literal["asc", "desc"], Query(description="ReplyDateTime order")]
