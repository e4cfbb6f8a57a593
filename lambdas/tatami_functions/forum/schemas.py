"""What the forum routes take: a forum's name, a thread's subject, a window and order of replies.

The forum API only reads, so it has parameters and no bodies.
"""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler.openapi.params import Path, Query

from tatami_functions.common.instants import Instant

ForumName = Annotated[str, Path(min_length=1, max_length=255, description="The forum's Name")]
Subject = Annotated[str, Path(min_length=1, max_length=1024, description="The thread's Subject")]
From = Annotated[Instant | None, Query(alias="from", description="Replies at or after (ISO 8601)")]
To = Annotated[Instant | None, Query(alias="to", description="Replies at or before (ISO 8601)")]
Order = Annotated[Literal["asc", "desc"], Query(description="ReplyDateTime order")]
