"""Routes of the campaign-targeting model (seed 004): profiles, and candidates meeting every condition."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Annotated, Any

from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from tatami_functions.campaigns.exceptions import ProfileNotFoundError
from tatami_functions.campaigns.intersect import LOWEST, SortedIds, intersect
from tatami_functions.campaigns.models import Month, ProfileIn, conditions
from tatami_functions.campaigns.repository import IndexReads, default_table
from tatami_functions.common.api import answer_errors, create_resolver
from tatami_functions.common.prefectures import Prefecture
from tatami_functions.common.tokens import decode_token, encode_token

app = create_resolver("campaigns")

UserId = Annotated[str, Path(min_length=1, max_length=128)]
TAGS = ["campaigns"]
# One seek reads at most this many index items (KEYS_ONLY, ~50 bytes each: about 0.5 RCU a page).
SEEK_PAGE = 100


answer_errors(
    app,
    {
        ProfileNotFoundError: (HTTPStatus.NOT_FOUND, "{exc}"),
    },
)


@app.put("/campaigns/users/<user_id>", summary="Set a user's campaign profile", tags=TAGS)
def put_profile(user_id: UserId, body: Annotated[ProfileIn, Body()]) -> dict[str, Any]:
    default_table().put_profile(user_id, body.model_dump())
    return {"user_id": user_id, **body.model_dump(exclude_none=True)}


@app.get("/campaigns/users/<user_id>", summary="A user's campaign profile", tags=TAGS)
def get_profile(user_id: UserId) -> dict[str, Any]:
    return default_table().profile(user_id)


@app.get("/campaigns/candidates", summary="Users meeting every given condition (selective GSIs)", tags=TAGS)
def get_candidates(
    prefecture: Annotated[Prefecture | None, Query(description="shipping prefecture, e.g. 千葉県")] = None,
    birth_month: Annotated[Month | None, Query(description="1-12")] = None,
    order_month: Annotated[Month | None, Query(description="month of the last order, 1-12")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    next_: Annotated[str | None, Query(alias="next", max_length=4096)] = None,
) -> dict[str, Any]:
    asked = conditions(prefecture=prefecture, birth_month=birth_month, order_month=order_month)
    if not asked:
        raise BadRequestError("prefecture: give at least one of prefecture, birth_month, order_month")
    scope = json.dumps(["campaigns", prefecture, birth_month, order_month], ensure_ascii=False)
    start = decode_token(next_, scope) if next_ else LOWEST
    table, reads = default_table(), IndexReads()
    indexes = [SortedIds(table.seeker(condition, reads), SEEK_PAGE) for condition in asked]
    users, resume = intersect(indexes, start, limit)
    return {
        "users": users,
        "next": encode_token(resume, scope) if resume is not None else None,
        "stats": {**reads.to_json(), "items_returned": len(users)},
    }
